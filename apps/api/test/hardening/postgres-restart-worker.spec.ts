import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import type { Response } from 'supertest';
import { Receiver } from '@pis/testing/webhooks';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { Client } from '../support/client';
import { expectEnvelope } from '../support/envelope';
import { testResolver } from '../support/harness';
import { BACKOFFICE_TOKEN, startTestApi, type TestApi } from '../support/test-api';
import { B, P, planImport, type Json } from '../support/wire';
import { PrivatePostgres, privatePostgresUnavailable } from './support/private-postgres';

jest.setTimeout(120_000);

const PRODUCERS = 4;
/** A request that takes longer than this during the outage is hanging, not failing. */
const HANG_BOUND_MS = 5_000;
const REQUEST_DEADLINE_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

interface Answer {
  ms: number;
  status: number;
  res?: Response;
  error?: string;
}

/** One till's table: walk-in orders opened and closed on it, one after the other. */
interface Producer {
  table: string;
  /** Orders opened, in order; every one was closed before the next opened. */
  orders: string[];
  answers: Answer[];
}

const unavailable = privatePostgresUnavailable();

/**
 * The worker deployment (BullMQ worker process, Redis) while PostgreSQL crashes and comes
 * back, on a private cluster: the worker keeps running, and every event committed before
 * or after the outage (and those whose delivery the crash interrupted) reaches the
 * endpoint at least once, without a restart. The events come from till orders opened and
 * closed through the API throughout, retried by the till as a client would.
 */
(unavailable ? describe.skip : describe)(
  unavailable
    ? `PostgreSQL restarted under the webhook worker: SKIPPED, no private cluster can be made (${unavailable})`
    : 'PostgreSQL restarted under the webhook worker',
  () => {
    let pg: PrivatePostgres;
    let databaseUrl: string;
    let api: TestApi;
    let receiver: Receiver;
    let worker: WorkerProcess | null = null;
    const prefix = testPrefix('pg-restart');

    beforeAll(async () => {
      receiver = await Receiver.start();
      pg = await PrivatePostgres.start();
      databaseUrl = await pg.createDatabase('pis_restart_worker');
      const secretsKey = randomBytes(32).toString('base64');
      // With REDIS_URL the API only writes the outbox; the worker process delivers.
      api = await startTestApi(
        databaseUrl,
        { REDIS_URL, SECRETS_KEY: secretsKey },
        { resolver: testResolver },
      );
      worker = await WorkerProcess.start({
        DATABASE_URL: databaseUrl,
        REDIS_URL,
        BACKOFFICE_TOKEN,
        SECRETS_KEY: secretsKey,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        // A lease left by an attempt the crash interrupted lasts 2 x 1 s + 5 s.
        WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800,1600',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_QUEUE_PREFIX: prefix,
        WEBHOOK_WORKER_CONCURRENCY: '32',
        LOG_LEVEL: 'info',
      });
    });
    afterAll(async () => {
      await worker?.stop('SIGKILL');
      await api?.close().catch(() => undefined);
      await pg?.destroy();
      await receiver?.close();
      await dropPrefix(prefix);
    });

    it('When PostgreSQL crashes and restarts while events are being committed and delivered, then the same worker process delivers every committed event at least once, and no order or event is duplicated', async () => {
      const operator = new Client(api.server, BACKOFFICE_TOKEN);
      const created = await operator
        .post(`${B}/locations`)
        .send({ name: 'Worker', brand: 'test' })
        .expect(201);
      const locationId = created.body.id as string;
      const ops = (path: string) => `${B}/locations/${locationId}${path}`;
      const key = (await operator.post(ops('/api-keys')).expect(201)).body.key as string;
      const provider = new Client(api.server, key);
      const imported = await provider
        .post(`${P}/floorplan/import`)
        .send(planImport({ tables: PRODUCERS }))
        .expect(201);
      const tables = (imported.body.mapping as { tableId: string }[]).map((m) => m.tableId);
      await provider.put(`${P}/webhook-endpoint`).send({ url: receiver.url }).expect(200);
      await operator.post(ops('/floorplan/publish')).expect(200);
      // A receiver that takes its time: at the crash, attempts are in flight (sent, not yet
      // recorded), so their records fail and they are made again after their lease.
      const ANSWER_DELAY_MS = 300;
      const arrivals: number[] = [];
      receiver.respond = () => {
        arrivals.push(Date.now());
        return { status: 204, delayMs: ANSWER_DELAY_MS };
      };

      let workerExited = false;
      void worker!.exit().then(() => {
        workerExited = true;
      });

      const call = async (producer: Producer, path: string, body?: Json): Promise<Answer> => {
        const startedAt = Date.now();
        try {
          const res = await operator
            .post(ops(path))
            .send(body ?? {})
            .timeout({ deadline: REQUEST_DEADLINE_MS });
          const answer = { ms: Date.now() - startedAt, status: res.status, res };
          producer.answers.push(answer);
          return answer;
        } catch (error) {
          const answer = { ms: Date.now() - startedAt, status: 0, error: String(error) };
          producer.answers.push(answer);
          return answer;
        }
      };

      let stop = false;
      let abandon = false;
      const unexpected: string[] = [];
      /**
       * Opens and closes walk-in orders on one table until told to stop. A 503 is retried;
       * the retry of a POST whose commit the crash answered 503 finds it done: 409
       * table_occupied by this very order (opening), or 422 not open (closing).
       */
      const produce = async (producer: Producer) => {
        while (!stop && !abandon) {
          let orderId: string | null = null;
          let retried = false;
          while (orderId === null && !abandon) {
            const answer = await call(producer, '/orders', { tableIds: [producer.table], covers: 2 });
            const occupiedBy = answer.res?.body?.error?.occupiedBy as Json | undefined;
            if (answer.status === 201) orderId = answer.res!.body.id as string;
            else if (answer.status === 409 && retried && occupiedBy?.['reservationExternalId'] === null)
              orderId = occupiedBy['orderId'] as string;
            else if (answer.status === 503) retried = true;
            else unexpected.push(`open: ${answer.status} ${answer.error ?? answer.res?.text}`);
            if (orderId === null) await sleep(100);
          }
          if (orderId === null) return;
          producer.orders.push(orderId);
          retried = false;
          for (;;) {
            const answer = await call(producer, `/orders/${orderId}/close`);
            if (answer.status === 200 || (answer.status === 422 && retried) || abandon) break;
            if (answer.status === 503) retried = true;
            else unexpected.push(`close: ${answer.status} ${answer.error ?? answer.res?.text}`);
            await sleep(100);
          }
          // About as fast as the worker delivers (32 at a time, 300 ms each).
          await sleep(30);
        }
      };

      const outbox = async () => {
        const db = new PgClient({ connectionString: databaseUrl });
        await db.connect();
        try {
          return (
            await db.query<{ sequence: number; type: string; data: Json }>(
              'SELECT sequence::int AS sequence, type, data FROM outbox_events WHERE location_id = $1 ORDER BY sequence',
              [locationId],
            )
          ).rows;
        } finally {
          await db.end();
        }
      };
      const delivered = () =>
        new Set(
          receiver.requests.map(
            (r) =>
              (JSON.parse(r.body) as { data: { locationEventSequence: number } }).data.locationEventSequence,
          ),
        );

      const producers: Producer[] = tables.map((table) => ({ table, orders: [], answers: [] }));
      const production = Promise.all(producers.map(produce));
      try {
        await until('deliveries before the crash', () => delivered().size >= 60, 30_000);
        const crashAt = Date.now();
        await pg.stop('immediate');
        const inFlightAtCrash = arrivals.filter((t) => t > crashAt - ANSWER_DELAY_MS + 50).length;
        await sleep(2_000);
        const failedDuringOutage = producers.flatMap((p) => p.answers).filter((a) => a.status === 503).length;
        await pg.start();
        // Orders keep being opened and closed once PostgreSQL is back (two more per table).
        const ordersAtRestart = producers.map((p) => p.orders.length);
        await until(
          'two more orders per table after the restart',
          () => producers.every((p, i) => p.orders.length >= ordersAtRestart[i]! + 2),
          20_000,
        );
        stop = true;
        await production;

        expect(unexpected).toEqual([]);
        // The outage was real: requests failed, and events were still on their way.
        expect(failedDuringOutage).toBeGreaterThan(0);
        expect(inFlightAtCrash).toBeGreaterThan(0);
        const answers = producers.flatMap((p) => p.answers);
        expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(HANG_BOUND_MS);
        for (const answer of answers.filter((a) => a.status === 503)) {
          expectEnvelope(answer.res!, 503, 'internal_error');
          expect(answer.res!.headers['retry-after']).toBe('1');
        }

        // The outbox: 1..n, the publish, then per table each order's occupied, freed and closed, once.
        const events = await outbox();
        expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
        expect(events[0]!.type).toBe('floorplan.published');
        expect(events.length).toBe(1 + 3 * producers.reduce((n, p) => n + p.orders.length, 0));
        for (const producer of producers) {
          const own = events.filter((e) => producer.orders.includes(e.data['orderId'] as string));
          expect(own.map((e) => [e.type, e.data['orderId']])).toEqual(
            producer.orders.flatMap((id) => [
              ['table.occupied', id],
              ['table.freed', id],
              ['order.closed', id],
            ]),
          );
        }

        // Every committed event reaches the endpoint at least once, from the same worker.
        await receiver.waitFor(() => delivered().size >= events.length, 60_000, `${events.length} events`);
        expect([...delivered()].sort((a, b) => a - b)).toEqual(events.map((e) => e.sequence));
        expect(workerExited).toBe(false);
        // ...and records each as delivered (attempts cut off by the crash are made again).
        await until(
          'every delivery recorded as succeeded',
          async () => {
            const db = new PgClient({ connectionString: databaseUrl });
            await db.connect();
            try {
              const { rows } = await db.query<{ status: string; n: number }>(
                'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE location_id = $1 GROUP BY status',
                [locationId],
              );
              return rows.length === 1 && rows[0]!.status === 'succeeded' && rows[0]!.n === events.length;
            } finally {
              await db.end();
            }
          },
          30_000,
        );
      } finally {
        stop = true;
        abandon = true;
        await production.catch(() => undefined);
      }
    });
  },
);
