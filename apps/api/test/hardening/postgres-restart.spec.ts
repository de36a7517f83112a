import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { ok, ServiceUnavailableError } from '@pis/domain';
import type { Response } from 'supertest';
import { Client } from '../support/client';
import { expectEnvelope } from '../support/envelope';
import { testResolver } from '../support/harness';
import { Receiver } from '../support/receiver';
import { BACKOFFICE_TOKEN, startTestApi, type TestApi } from '../support/test-api';
import {
  B,
  P,
  nextUpdatedAt,
  planImport,
  requestFieldsOf,
  reservation,
  uniqueId,
  type Json,
} from '../support/wire';
import { PrivatePostgres, privatePostgresUnavailable } from './support/private-postgres';

jest.setTimeout(90_000);

const LOOPS = 8;
/** A request that takes longer than this during the outage is hanging, not failing. */
const HANG_BOUND_MS = 5_000;
/** supertest gives up here, so a hanging request becomes a recorded answer, not a stuck test. */
const REQUEST_DEADLINE_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** One answer to one attempt of a write. */
interface Answer {
  startedAt: number;
  ms: number;
  /** 0 when no response came (a timeout or a refused connection), with `error`. */
  status: number;
  outcome?: 'applied' | 'stale';
  /** Kept for every answer other than 200, to check the envelope. */
  res?: Response;
  error?: string;
}

/** One write (one `updatedAt`) of one reservation, sent again until it was answered 200. */
interface Write {
  externalId: string;
  body: Json;
  answers: Answer[];
}

interface Loop {
  mover: string;
  /** The two tables the loop's seated reservation moves between; it starts on the first. */
  tables: [string, string];
  plain: string[];
  writes: Write[];
}

const unavailable = privatePostgresUnavailable();

/**
 * PostgreSQL stops (a crash, or a fast shutdown) and comes back while the API takes a
 * steady load of writes, on a private cluster (the shared one must never be stopped): the
 * API says it is not ready, fails each request quickly with a retryable 503 instead of
 * hanging, recovers by itself when the database is back, and loses or duplicates nothing:
 * neither writes, nor the events they caused, nor the webhooks of those events (in-process
 * delivery).
 */
(unavailable ? describe.skip : describe)(
  unavailable
    ? `PostgreSQL restarted under load: SKIPPED, no private cluster can be made (${unavailable})`
    : 'PostgreSQL restarted under load',
  () => {
    let pg: PrivatePostgres;
    let databaseUrl: string;
    let api: TestApi;
    let receiver: Receiver;
    let anonymous: Client;
    let operator: Client;

    beforeAll(async () => {
      receiver = await Receiver.start();
      pg = await PrivatePostgres.start();
      databaseUrl = await pg.createDatabase('pis_restart');
      // A fresh database: the composition root applies every migration at start. Short
      // webhook timeout and retries, so a lease left by an attempt the crash interrupted
      // (2 x timeout + 5 s) runs out within the test.
      api = await startTestApi(
        databaseUrl,
        { WEBHOOK_RETRY_DELAYS_MS: '50,100,200,400,800,1600', WEBHOOK_TIMEOUT_MS: '1000' },
        { resolver: testResolver },
      );
      await api.runtime.start();
      anonymous = new Client(api.server, null);
      operator = new Client(api.server, BACKOFFICE_TOKEN);
    });
    afterAll(async () => {
      await api?.close().catch(() => undefined);
      await pg?.destroy();
      await receiver?.close();
    });

    // immediate: a crash (every backend killed, no checkpoint); fast: an orderly restart
    // (sessions terminated with 57P01, transactions rolled back, a checkpoint).
    it.each(['immediate', 'fast'] as const)(
      'When PostgreSQL stops (%s) and restarts during a steady load of writes, then readyz and every request answer 503 quickly, the API recovers by itself, and no write, event or webhook is lost or duplicated',
      async (mode) => {
        // A location with a key, an endpoint for every event type, and a published plan.
        const created = await operator
          .post(`${B}/locations`)
          .send({ name: 'Restart', brand: 'test' })
          .expect(201);
        const locationId = created.body.id as string;
        const key = (await operator.post(`${B}/locations/${locationId}/api-keys`).expect(201)).body
          .key as string;
        const provider = new Client(api.server, key);
        const imported = await provider
          .post(`${P}/floorplan/import`)
          .send(planImport({ tables: 2 * LOOPS }))
          .expect(201);
        const tables = (imported.body.mapping as { tableId: string }[]).map((m) => m.tableId);
        const hookPath = `/hooks/${locationId}`;
        await provider
          .put(`${P}/webhook-endpoint`)
          .send({ url: `${receiver.origin}${hookPath}` })
          .expect(200);
        await operator.post(`${B}/locations/${locationId}/floorplan/publish`).expect(200);

        // Each loop owns one seated reservation, moved between its two tables by every write
        // to it (each move: table.freed + table.occupied), and two plain ones.
        const loops: Loop[] = [];
        for (let i = 0; i < LOOPS; i += 1) {
          const loop: Loop = {
            mover: uniqueId('mover'),
            tables: [tables[2 * i]!, tables[2 * i + 1]!],
            plain: [uniqueId('plain'), uniqueId('plain')],
            writes: [],
          };
          await provider
            .post(`${P}/reservations`)
            .send(reservation({ externalId: loop.mover, status: 'seated', tableIds: [loop.tables[0]] }))
            .expect(201);
          for (const externalId of loop.plain) {
            await provider.post(`${P}/reservations`).send(reservation({ externalId })).expect(201);
          }
          loops.push(loop);
        }

        const put = async (write: Write): Promise<Answer> => {
          const startedAt = Date.now();
          try {
            const res = await provider
              .put(`${P}/reservations/${write.externalId}`)
              .send(write.body)
              .timeout({ deadline: REQUEST_DEADLINE_MS });
            const ms = Date.now() - startedAt;
            return res.status === 200
              ? { startedAt, ms, status: 200, outcome: res.body.outcome }
              : { startedAt, ms, status: res.status, res };
          } catch (error) {
            // Includes a response the OpenAPI check rejected.
            return { startedAt, ms: Date.now() - startedAt, status: 0, error: String(error) };
          }
        };

        let stopLoad = false;
        // Set only when the test fails: the loops give up on their current write too.
        let abandon = false;
        const runLoop = async (loop: Loop) => {
          let onSecond = false;
          for (let k = 0; !stopLoad; k += 1) {
            const isMover = k % 3 === 0;
            const externalId = isMover ? loop.mover : loop.plain[(k % 3) - 1]!;
            const body = isMover
              ? reservation({
                  externalId,
                  status: 'seated',
                  tableIds: [loop.tables[onSecond ? 0 : 1]],
                  updatedAt: nextUpdatedAt(),
                })
              : reservation({ externalId, covers: 1 + (k % 7), updatedAt: nextUpdatedAt() });
            const write: Write = { externalId, body, answers: [] };
            loop.writes.push(write);
            // A provider retries a write until it is answered (and sends nothing newer for
            // that reservation meanwhile), so each write ends applied exactly once; the
            // pause is shorter than Retry-After to keep the load on during the outage.
            for (;;) {
              const answer = await put(write);
              write.answers.push(answer);
              if (answer.status === 200 || abandon) break;
              await sleep(100);
            }
            if (isMover) onSecond = !onSecond;
          }
        };

        const answers = () => loops.flatMap((l) => l.writes.flatMap((w) => w.answers));
        const loadStartedAt = Date.now();
        const load = Promise.all(loops.map(runLoop));
        try {
          // The load is steady: a second of it, every loop with writes applied.
          await until(
            'every loop to have 3 writes applied',
            () =>
              Date.now() - loadStartedAt >= 1_000 &&
              loops.every((l) => l.writes.filter((w) => w.answers.at(-1)?.status === 200).length >= 3)
                ? true
                : undefined,
            15_000,
          );

          await pg.stop(mode);
          const downAt = Date.now();

          const notReady = await until(
            'readyz to answer 503',
            async () => {
              const res = await anonymous.get('/readyz').timeout({ deadline: REQUEST_DEADLINE_MS });
              return res.status === 503 ? res : undefined;
            },
            HANG_BOUND_MS,
          );
          expectEnvelope(notReady, 503, 'internal_error');
          expect(notReady.headers['retry-after']).toBe('1');
          const health = await anonymous.get('/healthz').timeout({ deadline: REQUEST_DEADLINE_MS });
          expect({ status: health.status, body: health.body }).toEqual({
            status: 200,
            body: expect.objectContaining({ status: 'ok' }),
          });

          // The outage lasts until every loop has been refused at least twice, and 1.5 s at least.
          await until(
            'every loop to be answered 503 twice during the outage',
            () =>
              Date.now() - downAt >= 1_500 &&
              loops.every(
                (l) =>
                  l.writes.flatMap((w) => w.answers).filter((a) => a.startedAt >= downAt && a.status === 503)
                    .length >= 2,
              )
                ? true
                : undefined,
            10_000,
          );
          const duringOutage = answers().filter((a) => a.startedAt >= downAt);
          await pg.start();

          await until(
            'readyz to answer 200 again',
            async () => {
              const res = await anonymous.get('/readyz').timeout({ deadline: REQUEST_DEADLINE_MS });
              return res.status === 200 ? true : undefined;
            },
            15_000,
          );
          const readyAt = Date.now();
          // Writes pass again, on the same API process.
          await until(
            'every loop to have a write applied after recovery',
            () =>
              loops.every((l) =>
                l.writes.some((w) => w.answers.some((a) => a.startedAt >= readyAt && a.status === 200)),
              )
                ? true
                : undefined,
            15_000,
          );
          stopLoad = true;
          await load;

          // Nothing hung and nothing but 503 internal_error was answered while PostgreSQL was down.
          expect(duringOutage.filter((a) => a.status !== 503).map((a) => a.status)).toEqual([]);
          expect(duringOutage.length).toBeGreaterThanOrEqual(2 * LOOPS);
          const slowest = Math.max(...answers().map((a) => a.ms));
          expect(slowest).toBeLessThan(HANG_BOUND_MS);
          // Every answer of the whole run: 200, or 503 in the envelope with Retry-After and no internals.
          const failed = answers().filter((a) => a.status !== 200);
          expect(
            failed.filter((a) => a.status !== 503).map((a) => ({ status: a.status, error: a.error })),
          ).toEqual([]);
          for (const answer of failed) {
            expectEnvelope(answer.res!, 503, 'internal_error');
            expect(answer.res!.headers['retry-after']).toBe('1');
          }

          // Each write was answered applied exactly once, or stale after an earlier 503 (it
          // had committed before the crash took its answer): never stale on a first attempt.
          const writes = loops.flatMap((l) => l.writes);
          for (const write of writes) {
            const last = write.answers.at(-1)!;
            expect({ externalId: write.externalId, status: last.status }).toEqual({
              externalId: write.externalId,
              status: 200,
            });
            if (last.outcome === 'stale') expect(write.answers.length).toBeGreaterThan(1);
          }

          // What is stored is each reservation's newest write, once.
          const listed = await provider
            .get(`${P}/reservations?from=2026-11-21T00:00:00.000Z&to=2026-11-22T00:00:00.000Z&limit=500`)
            .expect(200);
          const stored = listed.body.reservations as Json[];
          const externalIds = loops.flatMap((l) => [l.mover, ...l.plain]);
          expect(stored.map((r) => r['externalId']).sort()).toEqual([...externalIds].sort());
          for (const externalId of externalIds) {
            const newest = writes.filter((w) => w.externalId === externalId).at(-1)!;
            const actual = stored.find((r) => r['externalId'] === externalId)!;
            expect(actual).toEqual(expect.objectContaining(requestFieldsOf(newest.body)));
          }

          // The outbox: sequences 1..n without a gap or a repeat, and exactly the events of
          // the writes: the publish, one table.occupied per seating, and per move one
          // table.freed of the table left and one table.occupied of the table taken.
          const db = new PgClient({ connectionString: databaseUrl });
          await db.connect();
          let events: { sequence: number; type: string; data: Json }[];
          try {
            events = (
              await db.query(
                'SELECT sequence::int AS sequence, type, data FROM outbox_events WHERE location_id = $1 ORDER BY sequence',
                [locationId],
              )
            ).rows;
          } finally {
            await db.end();
          }
          const moves = loops.map((l) => l.writes.filter((w) => w.externalId === l.mover).length);
          const total = 1 + LOOPS + 2 * moves.reduce((a, b) => a + b, 0);
          expect(events.map((e) => e.sequence)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
          expect(events[0]!.type).toBe('floorplan.published');
          loops.forEach((loop, i) => {
            const own = events.filter((e) => e.data['reservationExternalId'] === loop.mover);
            const expected = [{ type: 'table.occupied', tableId: loop.tables[0] }];
            for (let m = 0; m < moves[i]!; m += 1) {
              const [from, to] = m % 2 === 0 ? loop.tables : [loop.tables[1], loop.tables[0]];
              expected.push({ type: 'table.freed', tableId: from }, { type: 'table.occupied', tableId: to });
            }
            expect(own.map((e) => ({ type: e.type, tableId: e.data['tableId'] }))).toEqual(expected);
          });

          // Every committed event reaches the endpoint at least once, the ones whose attempt
          // the crash interrupted included (after their lease).
          const delivered = () =>
            new Set(
              receiver
                .at(hookPath)
                .map(
                  (r) =>
                    (JSON.parse(r.body) as { data: { locationEventSequence: number } }).data
                      .locationEventSequence,
                ),
            );
          await receiver.until(
            () => (delivered().size >= total ? true : undefined),
            30_000,
            `${total} events`,
          );
          expect([...delivered()].sort((a, b) => a - b)).toEqual(events.map((e) => e.sequence));
        } finally {
          stopLoad = true;
          abandon = true;
          await load.catch(() => undefined);
        }
      },
    );

    // PostgreSQL terminates a session that is idle in a transaction by sending 57P01 between
    // two statements; the driver reports it as a connection error, TypeORM releases the
    // query runner, and the work's next statement fails with "Query runner already
    // released" instead of a driver error. That is the database going away (503), not a
    // fault of the service (500): seen as a 500 during a fast restart under load.
    it('When the session of a unit of work is terminated between two of its statements, then it fails with ServiceUnavailableError (answered 503)', async () => {
      const admin = new PgClient({ connectionString: databaseUrl });
      await admin.connect();
      try {
        let terminated = 0;
        const run = api.runtime.deps.uow.run(async (tx) => {
          await tx.locations.findById(randomUUID());
          const { rows } = await admin.query(
            `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
              WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
          );
          terminated = rows.length;
          // The termination notice reaches the driver while no statement runs.
          await sleep(200);
          await tx.locations.findById(randomUUID());
          return ok(null);
        });
        const error = await run.then(
          () => null,
          (e: unknown) => e,
        );

        expect(terminated).toBe(1);
        expect(error).not.toBeNull();
        expect({ unavailable: error instanceof ServiceUnavailableError, error: String(error) }).toEqual({
          unavailable: true,
          error: String(error),
        });
      } finally {
        await admin.end();
      }
    });
  },
);
