import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEndpoint,
  Instant,
  ownProviderId,
  registerEndpoint,
  rotateSecret,
  type DomainEvent,
  type EventType,
  type StoredEvent,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@pis/domain';
import { createPersistence, openDatabase, runMigrations, type Persistence } from '@pis/persistence';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { AesGcmSecretCipher, CryptoSecretFactory } from '@pis/runtime';
import { at, commit, givenLocationRow } from '@pis/testing';

/** A migrated database of its own, and persistence's adapters over it (secrets encrypted as in production). */
export interface Harness {
  db: TestDatabase;
  persistence: Persistence;
  /** `SECRETS_KEY` for a worker process that must read the endpoints this harness stores. */
  secretsKey: string;
  close(): Promise<void>;
}

export async function openHarness(): Promise<Harness> {
  return withPersistence(await createTestDatabase({ poolSize: 12 }));
}

/** The same on embedded PGlite in a temporary directory (`db.url` is empty: there is no server). */
export async function openEmbeddedHarness(): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pis-webhooks-pglite-'));
  const database = await openDatabase({ dataDir });
  await runMigrations(database.dataSource);
  return withPersistence({
    url: '',
    dataSource: database.dataSource,
    database,
    async drop() {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

function withPersistence(db: TestDatabase): Harness {
  const key = randomBytes(32);
  const persistence = createPersistence(db.database, { cipher: new AesGcmSecretCipher(key) });
  return { db, persistence, secretsKey: key.toString('base64'), close: () => db.drop() };
}

const secrets = new CryptoSecretFactory();
const now = () => Instant.fromEpochMillis(Date.now());

export async function givenLocation(h: Harness): Promise<string> {
  return (await givenLocationRow(h.persistence.uow)).id;
}

/** Registers (or re-registers) the location's endpoint as the PUT use case would. */
export async function givenEndpoint(
  h: Harness,
  locationId: string,
  url: string,
  events: EventType[] | null = null,
): Promise<WebhookEndpoint> {
  return commit(h.persistence.uow, async (tx) => {
    const endpoint = registerEndpoint(await tx.webhookEndpoints.lock(locationId), {
      id: randomUUID(),
      locationId,
      url,
      events,
      newSecret: secrets.webhookSecret(),
      now: now(),
    });
    await tx.webhookEndpoints.save(endpoint);
    return endpoint;
  });
}

/** Rotates the endpoint's secret, as of `rotatedAt` (now by default; earlier to end the overlap). */
export async function rotateEndpointSecret(
  h: Harness,
  locationId: string,
  rotatedAt: Instant = now(),
): Promise<WebhookEndpoint> {
  return commit(h.persistence.uow, async (tx) => {
    const rotated = rotateSecret(
      (await tx.webhookEndpoints.lock(locationId))!,
      secrets.webhookSecret(),
      rotatedAt,
    );
    await tx.webhookEndpoints.save(rotated);
    return rotated;
  });
}

export async function deleteEndpoint(h: Harness, locationId: string): Promise<void> {
  await commit(h.persistence.uow, (tx) => tx.webhookEndpoints.delete(locationId));
}

/**
 * Another provider (not the location's own) granted the location, with an endpoint of its own:
 * of the location (`scope: 'location'`, `POST /webhook-endpoints`), granted first; or of the
 * provider (`scope: 'provider'`, no location), made before the grant, whose
 * `connection.granted` is written with it, as the grant use case does.
 */
export async function givenProviderEndpoint(
  h: Harness,
  locationId: string,
  url: string,
  scope: 'location' | 'provider' = 'location',
): Promise<WebhookEndpoint> {
  const providerId = randomUUID();
  const wide = scope === 'provider';
  return commit(h.persistence.uow, async (tx) => {
    await tx.providers.insert({
      id: providerId,
      name: wide ? 'A provider of many venues' : 'Another provider',
      brand: wide ? 'many' : 'another',
      createdAt: now(),
    });
    if (!wide) await tx.connections.grant(locationId, providerId, now());
    const endpoint = createEndpoint({
      id: randomUUID(),
      locationId: wide ? null : locationId,
      providerId,
      url,
      events: null,
      description: null,
      newSecret: secrets.webhookSecret(),
      now: now(),
    });
    await tx.webhookEndpoints.save(endpoint);
    if (wide) {
      await tx.connections.grant(locationId, providerId, now());
      await tx.outbox.appendConnectionEvent(providerId, locationId, {
        type: 'connection.granted',
        occurredAt: now(),
        data: { locationName: 'The venue', occurredAt: now().toIso() },
      });
    }
    return endpoint;
  });
}

export async function appendEvents(
  h: Harness,
  locationId: string,
  events: DomainEvent[],
): Promise<StoredEvent[]> {
  // As the domain raises them: an event naming a reservation carries the provider that owns
  // it, here the location's own (the fixtures name no other provider's reservations).
  const owned = events.map((event) =>
    (event.data as { reservationExternalId?: unknown }).reservationExternalId == null ||
    event.reservationProviderId !== undefined
      ? event
      : { ...event, reservationProviderId: ownProviderId(locationId) },
  );
  return commit(h.persistence.uow, (tx) => tx.outbox.append(locationId, owned));
}

export async function requestRedelivery(
  h: Harness,
  locationId: string,
  deliveryId: string,
): Promise<boolean> {
  return commit(h.persistence.uow, (tx) => tx.webhookDeliveries.requestRedelivery(locationId, deliveryId));
}

/** Relays every committed event, as the relay loop would. */
export async function relayAll(h: Harness): Promise<void> {
  while ((await h.persistence.pipeline.relay.relayBatch(500)).events === 500);
}

export async function deliveries(h: Harness, locationId: string): Promise<WebhookDelivery[]> {
  return h.persistence.queries.webhooks.listDeliveries({
    locationId,
    status: null,
    after: null,
    limit: 5_000,
  });
}

/** Polls the location's deliveries until `condition` holds. */
export async function waitForDeliveries(
  h: Harness,
  locationId: string,
  condition: (all: WebhookDelivery[]) => boolean,
  timeoutMs = 20_000,
): Promise<WebhookDelivery[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await deliveries(h, locationId);
    if (condition(all)) return all;
    if (Date.now() > deadline) {
      throw new Error(`deliveries never met the condition: ${JSON.stringify(all.map(summary))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const summary = (d: WebhookDelivery) => ({
  status: d.status,
  attempts: d.attempts.map((a) => [a.responseStatus, a.error]),
});

const T = at('2026-11-21T19:00:00.123456Z');
const TABLE = '6f1c2b8e-4a5d-4c3e-9b7a-1d2e3f4a5b6c';
const OTHER_TABLE = '7a2d3c9f-5b6e-4d4f-8c8b-2e3f4a5b6c7d';
const ORDER = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

/** One event of every type, with the `data` docs/reference/webhooks.md#events lists. */
export function oneEventOfEveryType(): DomainEvent[] {
  return [
    {
      type: 'floorplan.published',
      occurredAt: T,
      data: {
        version: 3,
        publishedAt: T.toIso(),
        changes: { added: [], deactivated: [], reactivated: [], relabelled: [], updated: [] },
      },
    },
    {
      type: 'table.occupied',
      occurredAt: T,
      data: {
        tableId: TABLE,
        orderId: ORDER,
        reservationExternalId: 'R-1',
        covers: 4,
        occurredAt: T.toIso(),
      },
    },
    {
      type: 'table.freed',
      occurredAt: T,
      data: {
        tableId: TABLE,
        orderId: ORDER,
        reservationExternalId: null,
        reason: 'moved',
        occurredAt: T.toIso(),
      },
    },
    {
      type: 'table.spend_updated',
      occurredAt: T,
      data: {
        tableIds: [TABLE, OTHER_TABLE],
        orderId: ORDER,
        reservationExternalId: 'R-1',
        spendMinor: 12_450,
        currency: 'EUR',
        covers: 4,
        occurredAt: T.toIso(),
        totals: {
          subtotalMinor: 12_450,
          discountMinor: 0,
          taxMinor: 0,
          tipMinor: 0,
          paidMinor: 0,
          balanceMinor: 12_450,
        },
      },
    },
    {
      type: 'table.status_changed',
      occurredAt: T,
      data: {
        tableIds: [TABLE],
        orderId: ORDER,
        reservationExternalId: 'R-1',
        serviceStatus: 'bill_requested',
        occurredAt: T.toIso(),
      },
    },
    {
      type: 'order.closed',
      occurredAt: T,
      data: {
        orderId: ORDER,
        reservationExternalId: 'R-1',
        tableIds: [TABLE],
        covers: 4,
        currency: 'EUR',
        openedAt: T.toIso(),
        closedAt: T.toIso(),
        check: {
          items: [
            {
              id: ORDER,
              label: 'Menu',
              quantity: 1,
              amountMinor: 12_450,
              taxRateBps: 1000,
              course: 'main',
              voided: false,
            },
          ],
          discounts: [],
          payments: [{ id: ORDER, amountMinor: 12_450, tipMinor: 0, tender: 'card', paidAt: T.toIso() }],
          subtotalMinor: 12_450,
          discountMinor: 0,
          taxMinor: 1132,
          totalMinor: 12_450,
          tipMinor: 0,
          paidMinor: 12_450,
          balanceMinor: 0,
        },
      },
    },
  ];
}

/** `n` table.occupied events told apart by their covers. */
export function occupiedEvents(n: number): DomainEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    type: 'table.occupied' as const,
    occurredAt: T,
    data: {
      tableId: TABLE,
      orderId: ORDER,
      reservationExternalId: null,
      covers: i + 1,
      occurredAt: T.toIso(),
    },
  }));
}
