export {
  createDataSource,
  openDatabase,
  runMigrations,
  type DatabaseTarget,
  type DataSourceSettings,
  type PostgresTarget,
} from './db/data-source';
export { Database, type DatabaseOptions, type LocationRead, type PoolUsage } from './db/database';
export type { ReplicaSettings, ReplicaState, ReplicaStatus, RouteReason } from './db/replica-reads';
export type { ReadSql, Sql } from './db/sql';
export { InProcessWritePositions, walBytes, type WritePositions } from './db/write-positions';
export { createPersistence, type Persistence, type PersistenceSettings } from './persistence';
export type { SecretCipher } from './mappers/webhook.mapper';
export { windowStatement } from './queries/pg-reservation-queries';
