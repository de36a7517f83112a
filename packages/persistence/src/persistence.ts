import type { PlainReservationWrites, Queries } from '@pis/domain';
import type { DataSource } from 'typeorm';
import { DbSession } from './adapters/db-session';
import { statementRunner } from './adapters/prepared-statements';
import { SqlPlainReservationWrites } from './adapters/sql-plain-reservation-writes';
import { TypeormUnitOfWork, type UnitOfWorkSettings } from './adapters/typeorm-unit-of-work';
import type { SecretCipher } from './mappers/webhook.mapper';
import { TypeormAccessQueries } from './queries/typeorm-access-queries';
import { TypeormFloorPlanQueries } from './queries/typeorm-floor-plan-queries';
import { TypeormOrderQueries } from './queries/typeorm-order-queries';
import { TypeormReservationQueries } from './queries/typeorm-reservation-queries';
import { TypeormWebhookQueries } from './queries/typeorm-webhook-queries';

export interface PersistenceSettings extends UnitOfWorkSettings {
  /** Protects webhook secrets at rest. */
  cipher: SecretCipher;
}

export interface Persistence {
  uow: TypeormUnitOfWork;
  plainWrites: PlainReservationWrites;
  queries: Queries;
}

/**
 * The unit of work and the read side over one DataSource. They share a session, so queries
 * made inside a unit of work run in its transaction.
 */
export function createPersistence(dataSource: DataSource, settings: PersistenceSettings): Persistence {
  const session = new DbSession(dataSource);
  return {
    uow: new TypeormUnitOfWork(session, settings.cipher, settings),
    plainWrites: new SqlPlainReservationWrites(statementRunner(dataSource)),
    queries: {
      reservations: new TypeormReservationQueries(session),
      floorPlans: new TypeormFloorPlanQueries(session),
      orders: new TypeormOrderQueries(session),
      access: new TypeormAccessQueries(session),
      webhooks: new TypeormWebhookQueries(session, settings.cipher),
    },
  };
}
