export * from './in-memory';
export * from './system';
export * from './builders';
export * from './scenarios';
export * from './events';
export * from './contracts';
