export * from './system-adapters';
export * from './secret-cipher';
export * from './logger';
export * from './config';
export * from './metrics';
export * from './tracing';
