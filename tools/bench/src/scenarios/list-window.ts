import { Instant } from '@pis/domain';
import { windowStatement } from '@pis/persistence';
import type { Client } from 'pg';
import { PROVIDER } from '../api-client';
import { withClient } from '../database';
import type { LoadResult } from '../load/outcomes';
import { measuredResult, type Measured, type ScenarioContext, type ScenarioResult } from '../scenario';
import { closedLoopGets, pacedGets } from './random-gets';
import { seedReservations, type BenchLocation } from '../seed';

export const LIST_FIRST_DAY_MS = Date.parse('2000-01-01T00:00:00Z');
export const DAY_MS = 86_400_000;
/** 864 s apart: 100 reservations a day. */
const SPACING_S = 864;
/** One page holds a whole day. */
export const LIST_LIMIT = 200;

export const LIST_BASELINES = { pg: 'baseline-bare-pg-list', express: 'baseline-bare-express-list' };

export const listDays = (reservations: number): number =>
  Math.floor((reservations * SPACING_S * 1000) / DAY_MS);

export function randomDay(days: number): { from: number; to: number } {
  const from = LIST_FIRST_DAY_MS + Math.floor(Math.random() * days) * DAY_MS;
  return { from, to: from + DAY_MS };
}

/** The reconciliation window listing: one random day (about 100 reservations) per request. */
export class ListWindow {
  readonly days: number;

  constructor(
    private readonly location: BenchLocation,
    readonly reservations: number,
  ) {
    this.days = listDays(reservations);
  }

  static async seed(databaseUrl: string, location: BenchLocation, reservations: number): Promise<void> {
    await seedReservations(databaseUrl, {
      locationId: location.locationId,
      prefix: 'lw',
      count: reservations,
      firstStartMs: LIST_FIRST_DAY_MS + 432_000, // 00:07:12 on the first day, then every 14.4 min
      spacingS: SPACING_S,
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  }

  path(): string {
    const { from, to } = randomDay(this.days);
    return `${PROVIDER}/reservations?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&limit=${LIST_LIMIT}`;
  }

  private get headers() {
    return { authorization: `Bearer ${this.location.key}` };
  }

  async saturated(ctx: ScenarioContext, name = 'list-window'): Promise<ScenarioResult> {
    let rows = 0;
    const load = {
      path: () => this.path(),
      headers: this.headers,
      onResponse: (status: number, body: string) => {
        if (status === 200) rows += countRows(body);
      },
    };
    const run = await closedLoopGets(ctx, load, () => (rows = 0));
    return this.result(ctx, name, run, [
      `${ctx.connections} connections, each asking for its next day when the last one answered; ${Math.round(rows / Math.max(1, run.value.requests))} reservations per answer on average`,
      await explainWindow(ctx.databaseUrl, this.location.locationId, this.days),
    ]);
  }

  /** Open loop at `rate` requests/s, evenly spaced: the p99 target's run. */
  async paced(ctx: ScenarioContext, rate: number, name = 'list-window-half-rate'): Promise<ScenarioResult> {
    const run = await pacedGets(ctx, rate, { path: () => this.path(), headers: this.headers });
    return this.result(ctx, name, run, [
      `open loop: ${rate} listings/s (half of list-window's rate) at even intervals; latency counts from when each request was due`,
    ]);
  }

  private result(ctx: ScenarioContext, name: string, run: Measured<LoadResult>, notes: string[]) {
    return measuredResult(
      {
        name,
        apiWorkers: ctx.services.apiWorkers,
        description: `GET one-day windows (about 100 reservations, guest and prepayment filled) at random in a location holding ${this.reservations.toLocaleString('en')} reservations`,
        notes,
        baselines: LIST_BASELINES,
      },
      run,
    );
  }
}

const countRows = (body: string): number => body.split('"externalId"').length - 1;

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the listing's own statement (`windowStatement` of the
 * persistence adapter, with the limit the use case asks for), twice: with the values bound
 * (the plan of a one-off query) and as a prepared statement forced to its generic plan (what
 * a statement prepared once and executed many times may settle on).
 */
export async function explainWindow(databaseUrl: string, locationId: string, days: number): Promise<string> {
  const { from, to } = randomDay(days);
  const statement = windowStatement({
    locationId,
    from: Instant.fromEpochMillis(from),
    to: Instant.fromEpochMillis(to),
    after: null,
    limit: LIST_LIMIT + 1,
  });
  if (statement === null) return 'EXPLAIN: the window statement could not be built';
  const plan = async (client: Client, text: string, params: unknown[] = []) =>
    (await client.query<{ 'QUERY PLAN': string }>(text, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
  return withClient(databaseUrl, async (client) => {
    const custom = await plan(client, `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.params);
    await client.query(`SET plan_cache_mode = force_generic_plan`);
    await client.query(`PREPARE bench_window AS ${statement.text}`);
    const literals = statement.params.map((p) => `'${String(p).replace(/'/g, "''")}'`).join(', ');
    const generic = await plan(client, `EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_window(${literals})`);
    return [
      `Query plan of the window listing (\`windowStatement\`, limit ${LIST_LIMIT + 1}, ${new Date(from).toISOString().slice(0, 10)}), values bound:`,
      '',
      '```',
      custom,
      '```',
      '',
      'The same statement prepared, generic plan:',
      '',
      '```',
      generic,
      '```',
    ].join('\n');
  });
}
