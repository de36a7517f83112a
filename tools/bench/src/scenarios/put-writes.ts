import type autocannon from 'autocannon';
import { PROVIDER } from '../api-client';
import { withClient } from '../database';
import { bodyTemplate, iso } from '../fixtures';
import { runClosedLoop } from '../load/closed-loop';
import { classify, type LoadResult } from '../load/outcomes';
import { runPaced } from '../load/paced';
import {
  measure,
  measuredResult,
  type Measured,
  type ScenarioContext,
  type ScenarioResult,
} from '../scenario';
import { seedReservations, type BenchLocation } from '../seed';

export const PUT_RESERVATIONS = 50_000;
export const PUT_PREFIX = 'pa';
/** updatedAt of the seeded rows; write k carries SEEDED + 1 day + k ms, so each is newer. */
export const SEEDED_UPDATED_AT = '2026-01-01T00:00:00.000Z';
const FIRST_WRITE_MS = Date.parse(SEEDED_UPDATED_AT) + 86_400_000;

export const PUT_BASELINES = { pg: 'baseline-bare-pg-upsert', express: 'baseline-bare-express-put' };

/**
 * put-applied and put-stale. Write k goes to reservation k mod N with updatedAt = base + k ms,
 * so every write is newer than the last one to its reservation (and none overlap while N is
 * far above the connection count): each answer should be `200 applied`. The last applied
 * write of each reservation is remembered; put-stale sends exactly those bodies again.
 */
export class PutWrites {
  private counter = 0;
  /** Per reservation: the write number last applied, -1 while only the seed is stored. */
  private readonly lastApplied = new Float64Array(PUT_RESERVATIONS).fill(-1);
  private readonly body: (externalId: string, updatedAt: string) => string;
  private ctx!: ScenarioContext;

  constructor(private readonly location: BenchLocation) {
    this.body = bodyTemplate({ tableIds: location.tableIds.slice(0, 1) });
  }

  /** The services (API_WORKERS pass) the next runs go to; the write counter carries over. */
  on(ctx: ScenarioContext): this {
    this.ctx = ctx;
    return this;
  }

  static async seed(databaseUrl: string, location: BenchLocation): Promise<void> {
    await seedReservations(databaseUrl, {
      locationId: location.locationId,
      prefix: PUT_PREFIX,
      count: PUT_RESERVATIONS,
      firstStartMs: Date.parse('2026-11-21T12:00:00Z'),
      spacingS: 60,
      updatedAt: SEEDED_UPDATED_AT,
    });
  }

  private get headers() {
    return { authorization: `Bearer ${this.location.key}`, 'content-type': 'application/json' };
  }

  /** The next applied-write request: path, body, and what to remember when it applied. */
  private nextApplied() {
    const k = this.counter++;
    const n = k % PUT_RESERVATIONS;
    const externalId = `${PUT_PREFIX}-${n}`;
    return {
      path: `${PROVIDER}/reservations/${externalId}`,
      body: this.body(externalId, iso(FIRST_WRITE_MS + k)),
      applied: () => {
        if (k > this.lastApplied[n]!) this.lastApplied[n] = k;
      },
    };
  }

  private appliedRequest(): autocannon.Request {
    return {
      method: 'PUT',
      setupRequest: (req, context: { applied?: () => void }) => {
        const next = this.nextApplied();
        context.applied = next.applied;
        return { ...req, path: next.path, body: next.body };
      },
      onResponse: (status, body, context: { applied?: () => void }) => {
        if (classify(status, body) === '200 applied') context.applied?.();
      },
    };
  }

  private staleRequest(): autocannon.Request {
    let i = 0;
    return {
      method: 'PUT',
      setupRequest: (req) => {
        const n = i++ % PUT_RESERVATIONS;
        const k = this.lastApplied[n]!;
        const externalId = `${PUT_PREFIX}-${n}`;
        const updatedAt = k < 0 ? SEEDED_UPDATED_AT : iso(FIRST_WRITE_MS + k);
        return {
          ...req,
          path: `${PROVIDER}/reservations/${externalId}`,
          body: this.body(externalId, updatedAt),
        };
      },
    };
  }

  private async closedLoop(
    requests: autocannon.Request[],
    expected: string[],
    durationS: number,
    rate?: number,
  ) {
    return runClosedLoop({
      url: this.ctx.services.baseUrl,
      connections: this.ctx.connections,
      durationS,
      overallRate: rate,
      headers: this.headers,
      requests,
      expected,
    });
  }

  private async warm(request: autocannon.Request, expected: string[]): Promise<void> {
    if (this.ctx.warmupS > 0) await this.closedLoop([request], expected, this.ctx.warmupS);
  }

  /** As fast as the API answers, `connections` connections. */
  async applied(name = 'put-applied'): Promise<ScenarioResult> {
    await this.warm(this.appliedRequest(), ['200 applied']);
    const run = await measure(this.ctx, () =>
      this.closedLoop([this.appliedRequest()], ['200 applied'], this.ctx.durationS),
    );
    return this.result(name, run, [
      `${this.ctx.connections} connections, each sending its next PUT when the last one answered`,
      await this.verify(),
    ]);
  }

  /** Open loop at `rate` requests/s, evenly spaced (the p99 target's run). */
  async appliedPaced(rate: number): Promise<ScenarioResult> {
    const paced = (durationS: number) =>
      runPaced({
        url: this.ctx.services.baseUrl,
        rate,
        durationS,
        connections: this.ctx.connections,
        expected: ['200 applied'],
        next: () => {
          const next = this.nextApplied();
          return {
            method: 'PUT',
            path: next.path,
            headers: this.headers,
            body: next.body,
            onResponse: (status, body) => {
              if (classify(status, body) === '200 applied') next.applied();
            },
          };
        },
      });
    if (this.ctx.warmupS > 0) await paced(this.ctx.warmupS);
    const run = await measure(this.ctx, () => paced(this.ctx.durationS));
    return this.result('put-applied-half-rate', run, [
      `open loop: ${rate} PUTs/s (half of put-applied's rate) at even intervals over up to ${this.ctx.connections} connections; latency counts from when each request was due`,
    ]);
  }

  /** autocannon's `overallRate` at `rate`: bursts at the start of every second (kept for comparison). */
  async appliedAutocannonRate(rate: number): Promise<ScenarioResult> {
    const run = await measure(this.ctx, () =>
      this.closedLoop([this.appliedRequest()], ['200 applied'], this.ctx.durationS, rate),
    );
    return this.result('put-applied-half-rate-autocannon', run, [
      `autocannon overallRate ${rate}/s: each connection sends its share of a second back to back, then idles; a burst at full speed each second, not an even half load`,
    ]);
  }

  /** Blind retries: the last applied body of each reservation, sent again. */
  async stale(): Promise<ScenarioResult> {
    await this.warm(this.staleRequest(), ['200 stale']);
    const written = this.lastApplied.filter((k) => k >= 0).length;
    const run = await measure(this.ctx, () =>
      this.closedLoop([this.staleRequest()], ['200 stale'], this.ctx.durationS),
    );
    return this.result('put-stale', run, [
      `replays of the last applied body of each of ${PUT_RESERVATIONS.toLocaleString('en')} reservations (${written.toLocaleString('en')} written by put-applied, the rest as seeded): same updatedAt, so 200 stale and nothing written`,
    ]);
  }

  /** Every reservation holds its newest applied write: nothing lost, no older write applied over it. */
  async verify(): Promise<string> {
    const stored = await withClient(this.ctx.databaseUrl, async (client) => {
      const { rows } = await client.query<{ external_id: string; ms: string }>(
        `SELECT external_id, (extract(epoch FROM updated_at) * 1000)::bigint AS ms
           FROM reservations WHERE location_id = $1 AND external_id LIKE $2`,
        [this.location.locationId, `${PUT_PREFIX}-%`],
      );
      return new Map(rows.map((r) => [r.external_id, Number(r.ms)]));
    });
    let checked = 0;
    let mismatches = 0;
    this.lastApplied.forEach((k, n) => {
      if (k < 0) return;
      checked++;
      if (stored.get(`${PUT_PREFIX}-${n}`) !== FIRST_WRITE_MS + k) mismatches++;
    });
    return mismatches === 0
      ? `check: all ${checked.toLocaleString('en')} written reservations hold their newest applied write`
      : `check FAILED: ${mismatches} of ${checked} reservations do not hold their newest applied write`;
  }

  private result(name: string, run: Measured<LoadResult>, notes: string[]): ScenarioResult {
    const description = name.startsWith('put-stale')
      ? 'PUT blind retries of already-applied writes (same body, same updatedAt): 200 stale, nothing written'
      : 'PUT full bodies (guest and prepayment filled) to distinct existing reservations, each newer than the last';
    const apiWorkers = this.ctx.services.apiWorkers;
    return measuredResult({ name, apiWorkers, description, notes, baselines: PUT_BASELINES }, run);
  }
}
