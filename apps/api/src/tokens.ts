/** Service identifiers of the API's composition root. */
export const TOKENS = {
  Config: Symbol.for('pis.Config'),
  Logger: Symbol.for('pis.Logger'),
  DataSource: Symbol.for('pis.DataSource'),
  Persistence: Symbol.for('pis.Persistence'),
  AccessQueries: Symbol.for('pis.AccessQueries'),
  UrlPolicy: Symbol.for('pis.UrlPolicy'),
  Deps: Symbol.for('pis.Deps'),
  Validator: Symbol.for('pis.Validator'),
  OpenApiDocument: Symbol.for('pis.OpenApiDocument'),
  KeyRevocations: Symbol.for('pis.KeyRevocations'),
  Delivery: Symbol.for('pis.Delivery'),
  HttpApp: Symbol.for('pis.HttpApp'),
} as const;
