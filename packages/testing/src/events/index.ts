export * from './webhook-body';
