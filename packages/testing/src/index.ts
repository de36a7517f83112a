export * from './builders';
export * from './contracts';
