export * from './published-location';
