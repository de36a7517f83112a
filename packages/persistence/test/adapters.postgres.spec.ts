import { Client } from 'pg';
import { ok, type WebhookDelivery } from '@pis/domain';
import {
  anEndpoint,
  anEvent,
  anOrder,
  aReservation,
  at,
  commit,
  givenDraftTables,
  givenLocationRow,
  publishWorkingPlan,
} from '@pis/testing';
import { windowStatement } from '../src/queries/typeorm-reservation-queries';
import { postgresStore, seedDelivery, testCipher, type Store } from './support/harness';
import type { TestDatabase } from '../src/test-support';

let store: Store & { database: TestDatabase };
beforeAll(async () => {
  store = await postgresStore(4);
});
afterAll(() => store.close());

describe('PostgreSQL adapters', () => {
  describe('ReservationQueries.listWindow', () => {
    it('When a location holds thousands of reservations, then a keyset page is an index scan on (location_id, starts_at, id)', async () => {
      const location = await givenLocationRow(store.uow);
      const other = await givenLocationRow(store.uow);
      for (const id of [location.id, other.id]) {
        await store.dataSource.query(
          `INSERT INTO reservations (id, location_id, external_id, status, covers, starts_at, table_ids,
             updated_at, received_at)
           SELECT gen_random_uuid(), $1, 'bulk-' || n, 'booked', 2,
                  timestamptz '2026-11-01 12:00:00+00' + n * interval '1 minute', '{}', now(), now()
           FROM generate_series(1, 6000) AS n`,
          [id],
        );
      }
      await store.dataSource.query('ANALYZE reservations');
      const statement = windowStatement({
        locationId: location.id,
        from: at('2026-11-02T00:00:00Z'),
        to: at('2026-11-03T00:00:00Z'),
        after: { startsAt: at('2026-11-02T10:00:00Z'), id: '00000000-0000-4000-8000-000000000000' },
        limit: 101,
      })!;

      const [{ 'QUERY PLAN': plan }] = await store.dataSource.query(
        `EXPLAIN (FORMAT JSON) ${statement.text}`,
        statement.params,
      );
      const scan = JSON.stringify(plan);

      expect(scan).toContain('"Node Type":"Index Scan"');
      expect(scan).toContain('"Index Name":"reservations_window"');
      expect(scan).toMatch(/"Index Cond":"[^"]*location_id[^"]*starts_at[^"]*\(starts_at, id\) > /);
      expect(scan).not.toContain('"Node Type":"Sort"');
    });
  });

  describe('OrderRepository.lockTables', () => {
    it('When it waited for a table that an order took meanwhile, then it names that order and its reservation', async () => {
      const { location, tableIds } = await givenDraftTables(store.uow, 1);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let tookLock!: () => void;
      const locked = new Promise<void>((resolve) => (tookLock = resolve));
      const order = anOrder(location.id, tableIds, { reservationExternalId: 'R-winner' });
      const first = store.uow.run(async (tx) => {
        await tx.orders.lockTables(location.id, tableIds);
        tookLock();
        await held;
        await tx.orders.insert(order);
        return ok(undefined);
      });
      await locked;

      const second = commit(store.uow, (tx) => tx.orders.lockTables(location.id, tableIds));
      await new Promise((resolve) => setTimeout(resolve, 150));
      release();
      await first;

      expect(await second).toEqual([
        { tableId: tableIds[0], orderId: order.id, reservationExternalId: 'R-winner' },
      ]);
    });

    it('When an order is stored onto a table another open order holds, then the store refuses it as a broken invariant', async () => {
      const { location, tableIds } = await givenDraftTables(store.uow, 1);
      await commit(store.uow, (tx) => tx.orders.insert(anOrder(location.id, tableIds)));

      const second = commit(store.uow, (tx) => tx.orders.insert(anOrder(location.id, tableIds)));

      await expect(second).rejects.toThrow(/cannot hold tables/);
      expect(await store.queries.orders.list(location.id, 'open')).toHaveLength(1);
    });
  });

  describe('FloorPlanRepository', () => {
    it('When a plan is published with a table inactive, then published_active follows the snapshot and the working flag stays its own', async () => {
      const { location, room, tableIds } = await givenDraftTables(store.uow, 2);
      const [kept, retired] = tableIds as [string, string];
      await commit(store.uow, (tx) =>
        tx.floorPlans.saveTable(location.id, { ...room.tables[1]!, active: false }),
      );

      await commit(store.uow, (tx) => publishWorkingPlan(tx, location.id));
      await commit(store.uow, (tx) =>
        tx.floorPlans.saveTable(location.id, { ...room.tables[1]!, active: true }),
      );

      const rows = await store.dataSource.query(
        'SELECT id, active, published_active FROM dining_tables WHERE location_id = $1 ORDER BY id',
        [location.id],
      );
      expect(rows).toEqual(
        [
          { id: kept, active: true, published_active: true },
          { id: retired, active: true, published_active: false },
        ].sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      const published = await commit(store.uow, (tx) => tx.floorPlans.publishedTables(location.id, tableIds));
      expect(published?.tables.find((t) => t.id === retired)?.active).toBe(false);
    });

    it('When a table id is given in another case, then it is not a table of the plan', async () => {
      const { location, tableIds } = await givenDraftTables(store.uow, 1);
      await commit(store.uow, (tx) => publishWorkingPlan(tx, location.id));

      const published = await commit(store.uow, (tx) =>
        tx.floorPlans.publishedTables(location.id, [tableIds[0]!.toUpperCase()]),
      );

      expect(published).toEqual({ version: 1, tables: [] });
    });
  });

  describe('Outbox.append', () => {
    it('When events commit, then a listener on outbox_events hears the location id; a rolled-back append notifies nobody', async () => {
      const location = await givenLocationRow(store.uow);
      const listener = new Client({ connectionString: store.database.url });
      await listener.connect();
      const heard: string[] = [];
      listener.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
      await listener.query('LISTEN outbox_events');

      await store.uow.run(async (tx) => {
        await tx.outbox.append(location.id, [anEvent(1)]);
        return { ok: false, code: 'validation_failed', message: 'no', occupiedBy: null };
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const afterRollback = [...heard];
      await commit(store.uow, (tx) => tx.outbox.append(location.id, [anEvent(2), anEvent(3)]));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await listener.end();

      expect(afterRollback).toEqual([]);
      expect(heard).toEqual([`outbox_events:${location.id}`]);
    });
  });

  describe('webhook endpoints and deliveries', () => {
    it('When an endpoint is saved, then its secrets are stored encrypted and read back in clear', async () => {
      const location = await givenLocationRow(store.uow);
      const endpoint = anEndpoint(location.id);
      const secret = endpoint.secrets[0]!.secret;

      await commit(store.uow, (tx) => tx.webhookEndpoints.save(endpoint));

      const [row] = await store.dataSource.query(
        'SELECT secrets::text AS secrets FROM webhook_endpoints WHERE location_id = $1',
        [location.id],
      );
      expect(row.secrets).not.toContain(secret);
      expect(row.secrets).toContain(testCipher.encrypt(secret));
      expect((await store.queries.webhooks.findEndpoint(location.id))?.secrets[0]?.secret).toBe(secret);
    });

    it('When a failed delivery is redelivered, then it is pending, due now, one generation on, its attempt count and queued generation kept', async () => {
      const location = await givenLocationRow(store.uow);
      const [event] = await commit(store.uow, (tx) => tx.outbox.append(location.id, [anEvent(1)]));
      const delivery: WebhookDelivery = {
        id: '5f1d7e0c-0000-4000-8000-000000000001',
        locationId: location.id,
        endpointId: '5f1d7e0c-0000-4000-8000-0000000000ee',
        eventId: event!.id,
        eventType: event!.type,
        sequence: event!.sequence,
        status: 'failed',
        attempts: [],
        nextAttemptAt: null,
        createdAt: at('2026-11-21T18:00:00Z'),
        updatedAt: at('2026-11-21T18:30:00Z'),
      };
      await seedDelivery(store.dataSource, delivery);
      await store.dataSource.query(
        'UPDATE webhook_deliveries SET attempt_count = 8, generation = 2, queued_generation = 2 WHERE id = $1',
        [delivery.id],
      );
      const now = at('2026-11-21T19:30:00.000007Z');

      const answer = await commit(store.uow, (tx) =>
        tx.webhookDeliveries.requestRedelivery(location.id, delivery.id, now),
      );

      const [row] = await store.dataSource.query(
        `SELECT status, attempt_count, generation, queued_generation, next_attempt_at, updated_at
         FROM webhook_deliveries WHERE id = $1`,
        [delivery.id],
      );
      expect(answer).toBe(true);
      expect(row).toEqual({
        status: 'pending',
        attempt_count: 8,
        generation: 3,
        queued_generation: 2,
        next_attempt_at: '2026-11-21 19:30:00.000007+00',
        updated_at: '2026-11-21 19:30:00.000007+00',
      });
    });
  });

  describe('ReservationRepository.update', () => {
    it('When the reservation is not stored, then update refuses instead of silently doing nothing', async () => {
      const location = await givenLocationRow(store.uow);

      const update = commit(store.uow, (tx) => tx.reservations.update(aReservation(location.id)));

      await expect(update).rejects.toThrow(/not stored/);
    });
  });
});
