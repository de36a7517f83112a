import { Client } from 'pg';
import type autocannon from 'autocannon';
import { runLoad, type LoadResult } from '../load';
import { runPaced } from '../paced';
import { sampled, type ScenarioContext, type ScenarioResult } from '../scenario';
import { fullBody, seedReservations, type BenchLocation } from '../seed';

const RESERVATIONS = 20_000;
const PREFIX = 'pa';
const BASE_MS = Date.parse('2026-01-02T00:00:00Z');

/**
 * PUT full bodies (guest and prepayment filled) to distinct reservations, each write newer
 * than the last one to the same reservation: every answer should be 200 `applied`. Keeps
 * the last body sent to each reservation for the stale pass and the check afterwards.
 */
export class PutWrites {
  private counter = 0;
  private readonly lastBody = new Map<number, string>();
  private outcomes = { applied: 0, stale: 0, other: 0 };

  constructor(
    private readonly ctx: ScenarioContext,
    private readonly location: BenchLocation,
  ) {}

  async seed(): Promise<void> {
    await seedReservations(
      this.ctx.databaseUrl,
      this.location.locationId,
      PREFIX,
      RESERVATIONS,
      '2026-11-21T12:00:00Z',
      60,
    );
  }

  private headers() {
    return { authorization: `Bearer ${this.location.key}`, 'content-type': 'application/json' };
  }

  private countOutcome = (status: number, body: string) => {
    if (status !== 200) return;
    if (body.includes('"outcome":"applied"')) this.outcomes.applied++;
    else if (body.includes('"outcome":"stale"')) this.outcomes.stale++;
    else this.outcomes.other++;
  };

  /** The next write: the next reservation in turn, newer than anything sent before. */
  private nextApplied(): { path: string; body: string } {
    const i = this.counter++;
    const n = i % RESERVATIONS;
    const body = JSON.stringify(
      fullBody(`${PREFIX}-${n}`, new Date(BASE_MS + i).toISOString(), { covers: 1 + (i % 8) }),
    );
    this.lastBody.set(n, body);
    return { path: `/api/provider/v1/reservations/${PREFIX}-${n}`, body };
  }

  private applied(): autocannon.Request {
    return {
      method: 'PUT',
      setupRequest: (req) => ({ ...req, ...this.nextApplied() }),
      onResponse: this.countOutcome,
    };
  }

  /** Closed loop at full speed, or open loop at an even `rate` (requests/s). */
  async runApplied(rate?: number): Promise<ScenarioResult> {
    this.outcomes = { applied: 0, stale: 0, other: 0 };
    const { value: load, resources } = await sampled(this.ctx.services, () =>
      rate === undefined
        ? runLoad({
            url: this.ctx.services.baseUrl,
            connections: this.ctx.connections,
            durationS: this.ctx.durationS,
            headers: this.headers(),
            requests: [this.applied()],
            expected: [200],
          })
        : runPaced({
            url: this.ctx.services.baseUrl,
            rate,
            durationS: this.ctx.durationS,
            connections: this.ctx.connections,
            headers: this.headers(),
            next: () => {
              const { path, body } = this.nextApplied();
              return { method: 'PUT', path, body };
            },
            expected: [200],
            onResponse: this.countOutcome,
          }),
    );
    const name = rate === undefined ? 'put-applied' : 'put-applied-half-rate';
    return this.result(name, load, resources, 'applied', [
      rate === undefined
        ? `${this.ctx.connections} connections, closed loop: as fast as the API answers`
        : `open loop at an even ${rate} requests/s (half the measured maximum), latency counted from when each request was due`,
    ]);
  }

  /** Blind retries: the last body applied to each reservation, sent again. */
  async runStale(): Promise<ScenarioResult> {
    this.outcomes = { applied: 0, stale: 0, other: 0 };
    const bodies = [...this.lastBody.entries()];
    let i = 0;
    const { value: load, resources } = await sampled(this.ctx.services, () =>
      runLoad({
        url: this.ctx.services.baseUrl,
        connections: this.ctx.connections,
        durationS: this.ctx.durationS,
        headers: this.headers(),
        requests: [
          {
            method: 'PUT',
            setupRequest: (req) => {
              const [n, body] = bodies[i++ % bodies.length]!;
              return { ...req, path: `/api/provider/v1/reservations/${PREFIX}-${n}`, body };
            },
            onResponse: this.countOutcome,
          },
        ],
        expected: [200],
      }),
    );
    return this.result('put-stale', load, resources, 'stale', [`replays of ${bodies.length} applied writes`]);
  }

  /** Every reservation holds the last write sent to it (the newest updatedAt): nothing lost, nothing stale applied. */
  async verify(): Promise<string> {
    const client = new Client({ connectionString: this.ctx.databaseUrl });
    await client.connect();
    try {
      const rows = await client.query<{ external_id: string; updated_at: string }>(
        `SELECT external_id, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
           FROM reservations WHERE location_id = $1 AND external_id LIKE $2`,
        [this.location.locationId, `${PREFIX}-%`],
      );
      const stored = new Map(rows.rows.map((r) => [r.external_id, r.updated_at]));
      let mismatches = 0;
      for (const [n, body] of this.lastBody) {
        if (stored.get(`${PREFIX}-${n}`) !== (JSON.parse(body) as { updatedAt: string }).updatedAt)
          mismatches++;
      }
      return mismatches === 0
        ? `all ${this.lastBody.size} written reservations hold their newest write`
        : `${mismatches} mismatches`;
    } finally {
      await client.end();
    }
  }

  private result(
    name: string,
    load: LoadResult,
    resources: ScenarioResult['resources'],
    wanted: 'applied' | 'stale',
    notes: string[],
  ): ScenarioResult {
    // A 200 with the other outcome is as wrong as an unexpected status.
    const wrong = this.outcomes[wanted === 'applied' ? 'stale' : 'applied'] + this.outcomes.other;
    return {
      name,
      description:
        wanted === 'applied'
          ? 'PUT full bodies (guest and prepayment filled) to distinct reservations; each write is newer'
          : 'PUT blind retries of already-applied writes (same updatedAt): 200 stale, nothing written',
      load: { ...load, errors: load.errors + wrong },
      resources,
      metrics: {
        [`outcome ${wanted}`]: this.outcomes[wanted],
        'outcome other': load.requests - this.outcomes[wanted],
      },
      timeline: load.timeline,
      notes,
    };
  }
}
