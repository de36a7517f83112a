import { Client } from 'pg';
import { ok, updateReservation, type Reservation, type WebhookDelivery } from '@pis/domain';
import {
  anEndpoint,
  anEvent,
  anOrder,
  aReservation,
  at,
  commit,
  aReservationInput,
  givenDraftTables,
  givenLocationRow,
  plusMillis,
  publishWorkingPlan,
} from '@pis/testing';
import { windowStatement } from '../src/queries/pg-reservation-queries';
import { depsOver, postgresStore, seedDelivery, testCipher, type Store } from './support/harness';
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

    it('When a failed delivery is redelivered, then it is pending, due now on the database clock, one generation on, its attempt count started over and its queued generation kept', async () => {
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
      const [{ before }] = await store.dataSource.query('SELECT clock_timestamp()::text AS before');

      const answer = await commit(store.uow, (tx) =>
        tx.webhookDeliveries.requestRedelivery(location.id, delivery.id),
      );

      const [row] = await store.dataSource.query(
        `SELECT status, attempt_count, generation, queued_generation,
                next_attempt_at >= $2::timestamptz AND next_attempt_at <= clock_timestamp() AS due_now,
                updated_at = next_attempt_at AS updated_then
         FROM webhook_deliveries WHERE id = $1`,
        [delivery.id, before],
      );
      expect(answer).toBe(true);
      expect(row).toEqual({
        status: 'pending',
        attempt_count: 0,
        generation: 3,
        queued_generation: 2,
        due_now: true,
        updated_then: true,
      });
    });
  });

  describe('PlainReservationWrites.update (last-write-wins without a lock for stale writes)', () => {
    /** Holds the reservation's row lock in a transaction (writing `next` under it when given) until released. */
    function holdRow(stored: Reservation, next: Reservation | null) {
      let release!: (commitIt: boolean) => void;
      const released = new Promise<boolean>((resolve) => (release = resolve));
      let tookLock!: () => void;
      const locked = new Promise<void>((resolve) => (tookLock = resolve));
      const done = store.uow.run(async (tx) => {
        await tx.reservations.lockForWrite(stored.locationId, stored.externalId);
        if (next !== null) await tx.reservations.update(next);
        tookLock();
        return (await released)
          ? ok(undefined)
          : {
              ok: false as const,
              code: 'validation_failed' as const,
              message: 'rolled back',
              occupiedBy: null,
            };
      });
      return { locked, release: (commitIt: boolean) => (release(commitIt), done) };
    }

    /** Until a backend of the test database waits for a row lock (a heavyweight lock). */
    async function someoneWaitsForALock(): Promise<void> {
      for (;;) {
        const [row] = await store.dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (row.n > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    async function givenStored(): Promise<Reservation> {
      const location = await givenLocationRow(store.uow);
      const reservation = aReservation(location.id, { updatedAt: at('2026-11-20T10:00:00Z') });
      await commit(store.uow, (tx) => tx.reservations.insert(reservation));
      return reservation;
    }

    const writeOf = (stored: Reservation, ms: number, covers: number) =>
      aReservationInput({
        externalId: stored.externalId,
        covers,
        updatedAt: plusMillis(stored.updatedAt, ms),
      });

    /**
     * Runs `write` while another transaction holds the stored row's lock, released unwritten
     * after the write answers, or after 10 s if it is still waiting (then `heldUntilAnswer` is false).
     */
    async function whileRowHeld<T>(
      stored: Reservation,
      write: () => Promise<T>,
    ): Promise<{ answer: T; heldUntilAnswer: boolean }> {
      const holder = holdRow(stored, null);
      await holder.locked;
      let heldUntilAnswer = true;
      const deadline = setTimeout(() => {
        heldUntilAnswer = false;
        void holder.release(false);
      }, 10_000);
      const answer = await write();
      clearTimeout(deadline);
      await holder.release(false);
      return { answer, heldUntilAnswer };
    }

    it('When a stale write arrives while another transaction holds the row, then it answers stale without waiting and leaves the row unlocked', async () => {
      const stored = await givenStored();

      const { answer, heldUntilAnswer } = await whileRowHeld(stored, () =>
        store.plainWrites.update(stored.locationId, writeOf(stored, 0, 9), at('2026-11-21T00:00:00Z')),
      );

      expect(heldUntilAnswer).toBe(true);
      expect(answer).toEqual({ kind: 'stale', reservation: stored });
      // No transaction ever locked or wrote the row after its insert: xmax is still 0.
      const fresh = await givenStored();
      await store.plainWrites.update(fresh.locationId, writeOf(fresh, -1, 9), at('2026-11-21T00:00:00Z'));
      const [row] = await store.dataSource.query(
        `SELECT xmax::text AS xmax FROM reservations WHERE location_id = $1 AND external_id = $2`,
        [fresh.locationId, fresh.externalId],
      );
      expect(row.xmax).toBe('0');
    });

    it('When a stale seated write arrives while another transaction holds the row, then the use case answers stale without waiting', async () => {
      const stored = await givenStored();
      const input = { ...writeOf(stored, 0, 9), status: 'seated' as const, tableIds: [stored.id] };

      const { answer, heldUntilAnswer } = await whileRowHeld(stored, () =>
        updateReservation(depsOver(store), {
          locationId: stored.locationId,
          externalId: stored.externalId,
          input,
        }),
      );

      expect(heldUntilAnswer).toBe(true);
      expect(answer).toEqual({ ok: true, value: { outcome: 'stale', reservation: stored } });
    });

    it('When a write waits for a newer one that then commits, then it answers stale with that newest stored version, and the newest stays', async () => {
      const stored = await givenStored();
      const newest: Reservation = { ...stored, covers: 7, updatedAt: plusMillis(stored.updatedAt, 20) };
      const holder = holdRow(stored, newest);
      await holder.locked;

      const middle = store.plainWrites.update(
        stored.locationId,
        writeOf(stored, 10, 5),
        at('2026-11-21T00:00:00Z'),
      );
      await someoneWaitsForALock();
      await holder.release(true);

      expect(await middle).toEqual({ kind: 'stale', reservation: newest });
      expect(await store.queries.reservations.findByExternalId(stored.locationId, stored.externalId)).toEqual(
        newest,
      );
    });

    it('When a write waits for a newer one that then rolls back, then it applies over the stored version', async () => {
      const stored = await givenStored();
      const holder = holdRow(stored, { ...stored, covers: 7, updatedAt: plusMillis(stored.updatedAt, 20) });
      await holder.locked;

      const middle = store.plainWrites.update(
        stored.locationId,
        writeOf(stored, 10, 5),
        at('2026-11-21T00:00:00Z'),
      );
      await someoneWaitsForALock();
      await holder.release(false);

      const answer = await middle;
      expect(answer.kind === 'applied' && answer.reservation.covers).toBe(5);
      const after = await store.queries.reservations.findByExternalId(stored.locationId, stored.externalId);
      expect(after?.covers).toBe(5);
      expect(after?.updatedAt).toEqual(plusMillis(stored.updatedAt, 10));
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
