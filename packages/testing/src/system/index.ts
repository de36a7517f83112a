export * from './manual-clock';
export * from './ids';
export * from './crypto-adapters';
export * from './url-policy';
export * from './recording-webhook-tests';
