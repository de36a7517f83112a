import { PROVIDER } from '../api-client';
import { withClient } from '../database';
import type { LoadResult } from '../load/outcomes';
import { measuredResult, type Measured, type ScenarioContext, type ScenarioResult } from '../scenario';
import type { BenchLocation } from '../seed';
import { closedLoopGets, pacedGets } from './random-gets';

/** Events per page, the feed's default. */
export const FEED_LIMIT = 100;

/**
 * The event feed: `GET /events?after=<random>` pages of 100 in a location holding `events`
 * events (seeded in SQL, as the outbox stores them, already relayed). A reader catching up.
 */
export class EventFeed {
  constructor(
    private readonly location: BenchLocation,
    readonly events: number,
  ) {}

  /**
   * `count` table.occupied events (as the outbox stores them) after the location's own, one
   * every half second up to now, already relayed; the location's sequence moved past them.
   */
  static async seed(databaseUrl: string, location: BenchLocation, count: number): Promise<void> {
    await withClient(databaseUrl, async (client) => {
      await client.query(
        `WITH bumped AS (
           UPDATE locations SET event_sequence = event_sequence + $2 WHERE id = $1
           RETURNING event_sequence - $2 AS first)
         INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data, created_at, relayed_at)
         SELECT gen_random_uuid(), $1, bumped.first + g, 'table.occupied', t.at,
                jsonb_build_object('tableId', gen_random_uuid(), 'orderId', gen_random_uuid(),
                                   'reservationExternalId', NULL, 'covers', 1 + g % 8,
                                   'occurredAt', to_char(t.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
                t.at, now()
           FROM bumped, generate_series(1, $2::int) g,
                LATERAL (SELECT now() - make_interval(secs => ($2 - g) * 0.5) AS at) t
`,
        [location.locationId, count],
      );
      await client.query('VACUUM ANALYZE outbox_events');
    });
  }

  path(): string {
    const after = Math.floor(Math.random() * Math.max(1, this.events - FEED_LIMIT));
    return `${PROVIDER}/events?after=${after}&limit=${FEED_LIMIT}`;
  }

  private get headers() {
    return { authorization: `Bearer ${this.location.key}` };
  }

  /** As fast as the API answers, `connections` connections. */
  async saturated(ctx: ScenarioContext, name = 'feed'): Promise<ScenarioResult> {
    const run = await closedLoopGets(ctx, { path: () => this.path(), headers: this.headers });
    return this.result(ctx, name, run, [
      `${ctx.connections} connections, each asking for its next page when the last one answered`,
    ]);
  }

  /** Open loop at `rate` requests/s, evenly spaced. */
  async paced(ctx: ScenarioContext, rate: number, name = 'feed-half-rate'): Promise<ScenarioResult> {
    const run = await pacedGets(ctx, rate, { path: () => this.path(), headers: this.headers });
    return this.result(ctx, name, run, [
      `open loop: ${rate} pages/s (half of the saturated rate) at even intervals; latency counts from when each request was due`,
    ]);
  }

  private result(ctx: ScenarioContext, name: string, run: Measured<LoadResult>, notes: string[]) {
    return measuredResult(
      {
        name,
        apiWorkers: ctx.services.apiWorkers,
        description: `GET /events pages of ${FEED_LIMIT} after a random sequence in a location holding ${this.events.toLocaleString('en')} events`,
        notes,
        baselines: {},
      },
      run,
    );
  }
}
