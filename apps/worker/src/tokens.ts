/** Service identifiers of the worker's composition root. */
export const TOKENS = {
  Config: Symbol.for('pis.worker.Config'),
  Settings: Symbol.for('pis.worker.Settings'),
  Logger: Symbol.for('pis.worker.Logger'),
  Database: Symbol.for('pis.worker.Database'),
  Persistence: Symbol.for('pis.worker.Persistence'),
  Delivery: Symbol.for('pis.worker.Delivery'),
  Retention: Symbol.for('pis.worker.Retention'),
  KeyRetention: Symbol.for('pis.worker.KeyRetention'),
  Metrics: Symbol.for('pis.worker.Metrics'),
} as const;
