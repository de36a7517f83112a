export * from './manual-clock';
export * from './ids';
export * from './crypto-adapters';
export * from './url-policy';
