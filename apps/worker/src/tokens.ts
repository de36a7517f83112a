/** Service identifiers of the worker's composition root. */
export const TOKENS = {
  Config: Symbol.for('pis.worker.Config'),
  Settings: Symbol.for('pis.worker.Settings'),
  Logger: Symbol.for('pis.worker.Logger'),
  DataSource: Symbol.for('pis.worker.DataSource'),
  Persistence: Symbol.for('pis.worker.Persistence'),
  Delivery: Symbol.for('pis.worker.Delivery'),
} as const;
