/** Service identifiers of the API's composition root. */
export const TOKENS = {
  Config: Symbol.for('pis.Config'),
  Logger: Symbol.for('pis.Logger'),
  Database: Symbol.for('pis.Database'),
  Persistence: Symbol.for('pis.Persistence'),
  AccessQueries: Symbol.for('pis.AccessQueries'),
  UrlPolicy: Symbol.for('pis.UrlPolicy'),
  TestSender: Symbol.for('pis.TestSender'),
  Deps: Symbol.for('pis.Deps'),
  Validator: Symbol.for('pis.Validator'),
  OpenApiDocument: Symbol.for('pis.OpenApiDocument'),
  KeyRevocations: Symbol.for('pis.KeyRevocations'),
  Delivery: Symbol.for('pis.Delivery'),
  Retention: Symbol.for('pis.Retention'),
  Metrics: Symbol.for('pis.Metrics'),
  RateLimits: Symbol.for('pis.RateLimits'),
  HttpApp: Symbol.for('pis.HttpApp'),
} as const;
