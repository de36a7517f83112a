import type { IdempotencyStore, IdGenerator, PlainReservationWrites, Queries } from '@pis/domain';
import type { DeliveryPipelineStore, EventRetention, PipelineBacklog } from '@pis/ports';
import {
  PgAttemptLog,
  PgDeliveryLeases,
  PgEnqueueCandidates,
  PgOutboxRelayStore,
  PgOutboxSignals,
} from './webhooks/pg-delivery-pipeline';
import { PgEventRetention } from './outbox/pg-event-retention';
import { PgEventFeedQueries } from './queries/pg-event-feed-queries';
import { PgIdempotencyStore } from './idempotency/pg-idempotency-store';
import { SqlPlainReservationWrites } from './reservations/sql-plain-reservation-writes';
import { PgUnitOfWork, type UnitOfWorkSettings } from './adapters/pg-unit-of-work';
import type { Database } from './db/database';
import type { SecretCipher } from './mappers/webhook.mapper';
import { PgAccessQueries } from './queries/pg-access-queries';
import { PgFloorPlanQueries } from './queries/pg-floor-plan-queries';
import { PgOrderQueries } from './queries/pg-order-queries';
import { PgPipelineBacklog } from './queries/pg-pipeline-backlog';
import { PgReservationQueries } from './queries/pg-reservation-queries';
import { PgTableStateQueries } from './queries/pg-table-state-queries';
import { PgWebhookQueries } from './queries/pg-webhook-queries';

export interface PersistenceSettings extends UnitOfWorkSettings {
  /** Protects webhook secrets and kept answers of idempotent requests at rest. */
  cipher: SecretCipher;
}

export interface Persistence {
  db: Database;
  uow: PgUnitOfWork;
  plainWrites: PlainReservationWrites;
  queries: Queries;
  /** What the webhook pipeline (relay, queue, sender) stores through. */
  pipeline: DeliveryPipelineStore;
  /** How far the pipeline is behind (read on a metrics scrape). */
  backlog: PipelineBacklog;
  /** Prunes events past retention with their deliveries and attempts. */
  retention: EventRetention;
  /** `Idempotency-Key` requests and their kept answers (encrypted with `cipher`). */
  idempotency: IdempotencyStore;
}

/** Every storage port of the domain over one database. */
export function createPersistence(db: Database, settings: PersistenceSettings): Persistence {
  const uow = new PgUnitOfWork(db, settings.cipher, settings);
  return {
    db,
    uow,
    plainWrites: new SqlPlainReservationWrites(db),
    queries: {
      reservations: new PgReservationQueries(db),
      floorPlans: new PgFloorPlanQueries(db),
      orders: new PgOrderQueries(db),
      access: new PgAccessQueries(db),
      webhooks: new PgWebhookQueries(db, settings.cipher),
      events: new PgEventFeedQueries(db),
      tableState: new PgTableStateQueries(db),
    },
    retention: new PgEventRetention(db),
    idempotency: new PgIdempotencyStore(db, settings.cipher),
    pipeline: {
      relay: new PgOutboxRelayStore(db),
      leases: new PgDeliveryLeases(db),
      attempts: new PgAttemptLog(db),
      candidates: new PgEnqueueCandidates(db),
      signals: new PgOutboxSignals(db, uow),
    },
    backlog: new PgPipelineBacklog(db),
  };
}
