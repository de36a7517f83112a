export * from './in-memory';
export * from './system';
export * from '@pis/domain/test-support';
export * from './scenarios';
export * from './events';
export * from './contracts';
