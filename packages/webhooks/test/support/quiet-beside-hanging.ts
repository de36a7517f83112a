import type { DeliverySettings } from '../../src';
import type { RunningDelivery } from './delivery-behaviour';
import { TEST_SETTINGS } from './delivery-behaviour';
import {
  appendEvents,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  type Harness,
} from './harness';
import { Receiver } from '@pis/testing/webhooks';

/**
 * The attempt timeout of this check: far longer than the check. The hanging endpoint's
 * requests are held unanswered until the check ends, so none of its attempts ends while the
 * quiet location is watched, and a quiet delivery that needed one of their slots would wait
 * for a whole timeout.
 */
const TIMEOUT_MS = 30_000;

/** How long each quiet event may take to arrive: a third of the timeout, so a wait on a hanging attempt cannot pass. */
const ARRIVAL_LIMIT_MS = TIMEOUT_MS / 3;

/**
 * Events the hanging endpoint has waiting: ten times the slots of a process in these checks
 * (16), so that without the caps it would take every slot, and a first-in-first-out queue would
 * put the quiet location's events behind a long line of its jobs.
 */
const BACKLOG = 160;

/** The slots of the deliveries these checks start (the in-process default, and the worker's setting here). */
export const SLOTS = 16;

/**
 * The quiet location writes events one at a time for at least this long and this many: the
 * hanging endpoint's jobs are parked and come back meanwhile, and the quiet events pass them.
 */
const PHASE = { samples: 40, ms: 3_000 };

/** Pause between the quiet location's events. */
const PAUSE_MS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value below which `q` of the values lie (nearest rank). */
function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * One location's endpoint hangs (its requests held unanswered) with a backlog of events, more
 * than the process has slots, while a quiet location writes one event at a time: every quiet
 * event must arrive while every hanging attempt still hangs. A quiet delivery that waited for
 * a slot a hanging attempt holds would arrive only once that attempt timed out, after the
 * check. This is the isolation rule itself, decided by order, not by a latency figure: how
 * fast the quiet location is beside the hang is measured by the benchmark
 * (`tools/bench/src/quiet-beside-hanging.ts`, decision 0160).
 */
export function describeQuietBesideHanging(
  deployment: string,
  start: (h: Harness, settings: DeliverySettings) => Promise<RunningDelivery>,
  open: () => Promise<Harness> = openHarness,
): void {
  describe(`${deployment}: a quiet location beside a hanging endpoint`, () => {
    let h: Harness;
    let receiver: Receiver;
    let running: RunningDelivery | null = null;
    const arrived = new Map<string, number>();
    /** Answers the hanging endpoint's held requests. */
    const held: (() => void)[] = [];
    let holding = true;
    let answered = 0;

    beforeAll(async () => {
      h = await open();
      receiver = await Receiver.start();
      receiver.respond = (request) => {
        const id = String(request.headers['webhook-id']);
        if (!arrived.has(id)) arrived.set(id, Date.now());
        if (!holding || !request.path.startsWith('/hooks/hanging')) return { status: 204 };
        return new Promise((resolve) =>
          held.push(() => {
            answered++;
            resolve({ status: 204 });
          }),
        );
      };
    });
    afterAll(async () => {
      holding = false;
      held.splice(0).forEach((answer) => answer());
      await running?.stop();
      await receiver?.close();
      await h?.close();
    });

    it(`When one endpoint hangs with ${BACKLOG} events waiting, then every event of a quiet location arrives while every hanging attempt still hangs`, async () => {
      const quiet = await givenLocation(h);
      await givenEndpoint(h, quiet, receiver.url);
      running = await start(h, { ...TEST_SETTINGS, timeoutMs: TIMEOUT_MS, retryDelaysMs: [1_000, 60_000] });
      const hanging = await givenLocation(h);
      const path = '/hooks/hanging';
      await givenEndpoint(h, hanging, receiver.url.replace(/\/hooks$/, path));
      // Warm-up: connections, prepared statements, the quiet endpoint's standing.
      await quietOneByOne({ samples: 10, ms: 0 });

      await appendEvents(h, hanging, occupiedEvents(BACKLOG));
      await receiver.waitFor(() => held.length > 0, 20_000, 'the hanging endpoint attempted');
      const hangingSince = Date.now();
      const latencies = await quietOneByOne(PHASE);
      const watchedMs = Date.now() - hangingSince;
      const [{ n: waiting }] = (await h.db.dataSource.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE location_id = $1 AND status = 'pending'`,
        [hanging],
      )) as [{ n: number }];
      const hangingAttempts = receiver.requests.filter((r) => r.path === path).length;

      // Measurements for the record: `QUIET_BESIDE_HANGING_FIGURES=1 npx jest ...` (the benchmark's are the reference).
      if (process.env.QUIET_BESIDE_HANGING_FIGURES) {
        const figures = {
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          hangingAttempts,
        };
        process.stdout.write(`${deployment}: ${JSON.stringify({ ...figures, samples: latencies.length })}\n`);
      }
      // The hang held while the quiet location was watched: none of its attempts answered or
      // timed out, fewer of them were in flight than the process has slots, and it had more
      // events waiting than that.
      expect({
        quietEvents: latencies.length >= PHASE.samples,
        answered,
        watchedWithinTimeout: watchedMs < TIMEOUT_MS,
        hangingInFlight: hangingAttempts > 0 && hangingAttempts < SLOTS,
        moreWaitingThanSlots: waiting > SLOTS,
      }).toEqual({
        quietEvents: true,
        answered: 0,
        watchedWithinTimeout: true,
        hangingInFlight: true,
        moreWaitingThanSlots: true,
      });

      /** Commits one event of the quiet location at a time, waiting for each to arrive; answers each one's commit-to-receipt ms. */
      async function quietOneByOne(phase: typeof PHASE): Promise<number[]> {
        const result: number[] = [];
        const started = Date.now();
        while (result.length < phase.samples || Date.now() - started < phase.ms) {
          const [event] = await appendEvents(h, quiet, occupiedEvents(1));
          const committedAt = Date.now();
          await receiver.waitFor(
            () => arrived.has(event!.id),
            ARRIVAL_LIMIT_MS,
            `the quiet location's event ${result.length + 1} (it waited for a hanging attempt's slot)`,
          );
          result.push(arrived.get(event!.id)! - committedAt);
          await sleep(PAUSE_MS);
        }
        return result;
      }
    });
  });
}
