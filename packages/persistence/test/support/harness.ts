import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Deps, StoredEvent, WebhookDelivery } from '@pis/domain';
import {
  ConfigurableUrlPolicy,
  ManualClock,
  RandomIds,
  RandomSecrets,
  RecordingWebhookTests,
  Sha256KeyHasher,
} from '@pis/testing';
import type { InspectableAdapterSet } from '@pis/testing';
import type { DataSource } from 'typeorm';
import {
  createPersistence,
  openDatabase,
  runMigrations,
  type Persistence,
  type SecretCipher,
} from '../../src';
import { instantToDb, nullableInstantToDb } from '../../src/db-instant';
import { outboxEventMapper } from '../../src/mappers/outbox-event.mapper';
import type { OutboxEventRow } from '../../src/schemas/outbox-event.schema';
import { createTestDatabase, type TestDatabase } from '../../src/test-support';

/** Reversible and visibly not clear text, so a test can tell a stored secret from the secret. */
export const testCipher: SecretCipher = {
  encrypt: (plain) => `enc:${Buffer.from(plain, 'utf8').toString('base64')}`,
  decrypt: (stored) => {
    if (!stored.startsWith('enc:')) throw new Error('not a value of the test cipher');
    return Buffer.from(stored.slice(4), 'base64').toString('utf8');
  },
};

export interface Store extends Persistence {
  dataSource: DataSource;
  close(): Promise<void>;
}

/** A fresh migrated PostgreSQL database with the adapters over it (`settings`: its session defaults). */
export async function postgresStore(
  poolSize = 5,
  settings: Record<string, string> = {},
): Promise<Store & { database: TestDatabase }> {
  const database = await createTestDatabase({ poolSize, settings });
  return {
    ...createPersistence(database.database, { cipher: testCipher }),
    dataSource: database.dataSource,
    database,
    close: () => database.drop(),
  };
}

/** Embedded PGlite in a fresh temporary directory, migrated, with the adapters over it. */
export async function pgliteStore(): Promise<Store & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pis-pglite-'));
  const db = await openDatabase({ dataDir }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  await runMigrations(db.dataSource);
  return {
    ...createPersistence(db, { cipher: testCipher }),
    dataSource: db.dataSource,
    dataDir,
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The contract suites' view of a store: ports plus the owner's inspection hooks. */
export function inspectable(store: Store): InspectableAdapterSet {
  return {
    uow: store.uow,
    plainWrites: store.plainWrites,
    queries: store.queries,
    close: () => store.close(),
    events: (locationId) => committedEvents(store.dataSource, locationId),
    seedDelivery: (delivery) => seedDelivery(store.dataSource, delivery),
    pipeline: store.pipeline,
    backlog: store.backlog,
    retention: store.retention,
  };
}

export async function committedEvents(dataSource: DataSource, locationId: string): Promise<StoredEvent[]> {
  const rows: OutboxEventRow[] = await dataSource.query(
    'SELECT * FROM outbox_events WHERE location_id = $1 AND sequence IS NOT NULL ORDER BY sequence',
    [locationId],
  );
  return rows.map((row) => outboxEventMapper.toDomain({ ...row, sequence: Number(row.sequence) }));
}

/** Stores a delivery and its attempts as the relay and the worker would. */
export async function seedDelivery(dataSource: DataSource, d: WebhookDelivery): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query(
      `INSERT INTO webhook_deliveries (id, location_id, endpoint_id, event_id, event_type, sequence, status,
         attempt_count, next_attempt_at, generation, queued_generation, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, 0, $10, $11)`,
      [
        d.id,
        d.locationId,
        d.endpointId,
        d.eventId,
        d.eventType,
        d.sequence,
        d.status,
        d.attempts.length,
        nullableInstantToDb(d.nextAttemptAt),
        instantToDb(d.createdAt),
        instantToDb(d.updatedAt),
      ],
    );
    for (const a of d.attempts) {
      await manager.query(
        `INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
         VALUES ($1, $2, $3, $4, $5)`,
        [d.id, instantToDb(a.attemptedAt), a.responseStatus, a.durationMs, a.error],
      );
    }
  });
}

/** Real use-case dependencies over a store: random ids, a manual clock, SHA-256, real secrets. */
export function depsOver(store: Persistence, clock = new ManualClock()): Deps {
  return {
    uow: store.uow,
    plainWrites: store.plainWrites,
    queries: store.queries,
    clock,
    ids: new RandomIds(),
    hasher: new Sha256KeyHasher(),
    secrets: new RandomSecrets(),
    urlPolicy: new ConfigurableUrlPolicy(),
    webhookTests: new RecordingWebhookTests(),
  };
}

/** Undoes migrations, newest first, until `name` itself has been undone (the schema just before it). */
export async function undoMigrationsThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last] = await dataSource.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
    await dataSource.undoLastMigration({ transaction: 'each' });
    if (last.name === name) return;
  }
}
