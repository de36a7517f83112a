import { TEST_SETTINGS } from './support/delivery-behaviour';
import { appendEvents, givenEndpoint, givenLocation, occupiedEvents } from './support/harness';
import { dropPrefix, testPrefix } from '@pis/testing/webhooks';
import { holdRequests, queuedDelivery, usePipelineFixture } from './support/queued';

/**
 * Not part of the suite (not a `.spec.ts`): the benchmark's Redis-lost phase in small, to
 * reproduce the stall of decision 0166 and measure how often it happens. Each round holds every
 * request at the receiver, waits until all deliveries are queued, deletes the queue's keys as
 * the benchmark does (SCAN + UNLINK), lets the receiver answer, and fails after 45 s without a
 * new receipt, printing the engine's, the slots' and BullMQ's state. Run with:
 *
 *   REPRO_N=1500 REPRO_ROUNDS=5 pnpm exec jest --testMatch '**\/*.repro.ts' packages/webhooks/test/redis-loss-stall.repro.ts
 */
const N = Number(process.env['REPRO_N'] ?? 3000);
const ROUNDS = Number(process.env['REPRO_ROUNDS'] ?? 3);

describe('repro: stall after Redis keys deleted', () => {
  const f = usePipelineFixture('stall');
  for (let round = 0; round < ROUNDS; round++) {
    it(`round ${round}`, async () => {
      const { h, receiver } = f;
      const prefix = testPrefix(`stall${round}`);
      const locationId = await givenLocation(h);
      await givenEndpoint(h, locationId, receiver.url);
      const requests = holdRequests(receiver);
      const delivery = queuedDelivery(h, {
        prefix,
        concurrency: 32,
        settings: { ...TEST_SETTINGS, timeoutMs: 5_000 },
      });
      const pend: Record<string, number> = {};
      const wrap = (obj: any, name: string, label: string) => {
        const orig = obj[name].bind(obj);
        obj[name] = (...args: any[]) => {
          pend[label] = (pend[label] ?? 0) + 1;
          const p = Promise.resolve(orig(...args));
          void p.then(
            () => (pend[label] = pend[label]! - 1),
            () => (pend[label] = pend[label]! - 1),
          );
          return p;
        };
      };
      const sch = (delivery as any).runtime.options.scheduler;
      wrap((delivery as any).runtime.engine.leases, 'claimById', 'claim');
      wrap(delivery.stack.attempts, 'run', 'attempt');
      const deps = (delivery.stack.attempts as any).deps;
      wrap(deps.sender, 'send', 'send');
      wrap(deps.log, 'record', 'record');
      wrap(deps.endpoints, 'findEndpointById', 'endpoint');
      wrap(sch, 'delay', 'delay');
      wrap(sch, 'complete', 'complete');
      wrap(sch, 'abandon', 'abandon');
      wrap(sch, 'callBack', 'callBack');
      await delivery.start();
      const stored = await appendEvents(h, locationId, occupiedEvents(N));
      delivery.wake();
      const deadline = Date.now() + 120_000;
      for (;;) {
        const [row] = (await h.db.dataSource.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE location_id = $1 AND queued_generation = generation`,
          [locationId],
        )) as { n: number }[];
        if (row!.n === N) break;
        if (Date.now() > deadline) throw new Error(`only ${row!.n} queued`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const keys = await dropPrefix(prefix);
      requests.release();
      const ids = new Set(stored.map((e) => e.id));
      const ticker = setInterval(() => {
        const got = [...ids].filter((id) => receiver.ids().has(id)).length;
        // eslint-disable-next-line no-console
        console.log(
          'TICK',
          got,
          receiver.requests.length,
          JSON.stringify(pend),
          JSON.stringify((delivery as any).runtime.engine.slotUsage()),
        );
      }, 5000);
      try {
        let last = -1;
        let lastAt = Date.now();
        for (;;) {
          const got = [...ids].filter((id) => receiver.ids().has(id)).length;
          if (got === N) break;
          if (got !== last) {
            last = got;
            lastAt = Date.now();
          }
          if (Date.now() - lastAt > 45_000) throw new Error(`no receipt for 45 s at ${got}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      } catch (e) {
        const got = [...ids].filter((id) => receiver.ids().has(id)).length;
        const sched = (delivery as any).runtime.options.scheduler;
        const engine = (delivery as any).runtime.engine;
        const w = sched.worker;
        const q = w.mainLoopQueue;
        const counts = await delivery.queue.queue.getJobCounts();
        // eslint-disable-next-line no-console
        console.log('STALL', {
          got,
          pend,
          keys,
          standings: [...(engine.slots as any).standings.values()].map((st: any) => ({
            started: st.started.length,
            healthy: st.healthy,
            waiting: st.waiting.size,
            called: st.called.size,
          })),
          arrived: sched.arrived.length,
          inFlight: engine.inFlight.size,
          usage: engine.slotUsage(),
          fifo: q && { total: q.numTotal(), queued: q.numQueued(), pending: q.pending?.size },
          waiting: !!w.waiting,
          drained: w.drained,
          blockUntil: w.blockUntil,
          limitUntil: w.limitUntil,
          running: w.running,
          paused: w.paused,
          closing: !!w.closing,
          counts,
        });
        throw e;
      } finally {
        clearInterval(ticker);
        await delivery.stop();
      }
    }, 900_000);
  }
});
