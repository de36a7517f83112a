export { createDataSource, runMigrations, type DatabaseTarget, type DataSourceSettings } from './data-source';
export { createPersistence, type Persistence, type PersistenceSettings } from './persistence';
export { MIGRATIONS } from './migrations';
export * from './schemas';
export * from './mappers/location.mapper';
export * from './mappers/reservation.mapper';
export * from './mappers/order.mapper';
export * from './mappers/floor-plan.mapper';
export * from './mappers/outbox-event.mapper';
export * from './mappers/webhook.mapper';
export { instantFromDb, instantToDb, nullableInstantFromDb, nullableInstantToDb } from './db-instant';
export { DbSession } from './adapters/db-session';
export { Sql } from './adapters/sql';
export { statementRunner, type StatementRunner } from './adapters/prepared-statements';
export {
  TypeormUnitOfWork,
  type EventsCommittedListener,
  type UnitOfWorkSettings,
} from './adapters/typeorm-unit-of-work';
export { TypeormTransaction } from './adapters/typeorm-transaction';
export { OUTBOX_CHANNEL } from './adapters/typeorm-outbox';
export { isUuid } from './adapters/uuid';
export { windowStatement } from './queries/typeorm-reservation-queries';
