export {
  createDataSource,
  openDatabase,
  runMigrations,
  type DatabaseTarget,
  type DataSourceSettings,
  type PostgresTarget,
} from './db/data-source';
export { Database, type DatabaseOptions, type PoolUsage } from './db/database';
export type { Sql } from './db/sql';
export { createPersistence, type Persistence, type PersistenceSettings } from './persistence';
export type { SecretCipher } from './mappers/webhook.mapper';
export { windowStatement } from './queries/pg-reservation-queries';
