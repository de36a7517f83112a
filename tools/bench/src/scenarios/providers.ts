import autocannon from 'autocannon';
import { BACKOFFICE, BACKOFFICE_TOKEN, call, PROVIDER } from '../api-client';
import { withClient } from '../database';
import { bodyTemplate, iso } from '../fixtures';
import { runClosedLoop } from '../load/closed-loop';
import type { LoadResult } from '../load/outcomes';
import { summarize, type LatencySummary } from '../report/stats';
import { measure, type Measured, type ScenarioContext, type ScenarioResult } from '../scenario';
import { seedLocations, seedReservations, type BenchLocation } from '../seed';

/** Reservations each credential writes to in provider-auth. */
export const AUTH_RESERVATIONS = 20_000;
/** Locations connected to the provider of connections-page. */
export const CONNECTED_LOCATIONS = 10_000;
const SEEDED_UPDATED_AT = '2026-01-01T00:00:00.000Z';
const FIRST_WRITE_MS = Date.parse(SEEDED_UPDATED_AT) + 86_400_000;

export interface BenchProvider {
  id: string;
  key: string;
}

/** A provider with one key, through the backoffice API. */
export async function createBenchProvider(baseUrl: string, name: string): Promise<BenchProvider> {
  const { id } = await call<{ id: string }>(baseUrl, BACKOFFICE_TOKEN, 'POST', `${BACKOFFICE}/providers`, {
    name,
    brand: 'bench',
  });
  const { key } = await call<{ key: string }>(
    baseUrl,
    BACKOFFICE_TOKEN,
    'POST',
    `${BACKOFFICE}/providers/${id}/api-keys`,
  );
  return { id, key };
}

type Credential = 'location' | 'provider';

/**
 * provider-auth: the same full-body PUTs (each newer than the last to its reservation) with a
 * location key, and with a provider key naming the location in `Location-Id`, each to its own
 * reservations at one location. The cost is measured on one connection that alternates the two
 * credentials request by request, so both meet the same machine at the same moments and each
 * latency is a request's own time through the write path (no queue in front of it); the
 * throughput runs (location, provider, provider, location, all connections) are reported beside.
 */
export class ProviderAuth {
  private counter = 0;
  private readonly body: (externalId: string, updatedAt: string) => string;

  private constructor(
    private readonly location: BenchLocation,
    private readonly provider: BenchProvider,
  ) {
    this.body = bodyTemplate({ tableIds: location.tableIds.slice(0, 1) });
  }

  static async provision(ctx: ScenarioContext, location: BenchLocation): Promise<ProviderAuth> {
    const provider = await createBenchProvider(ctx.services.baseUrl, 'Bench booking system');
    await call(
      ctx.services.baseUrl,
      BACKOFFICE_TOKEN,
      'PUT',
      `${BACKOFFICE}/locations/${location.locationId}/connections/${provider.id}`,
    );
    const seed = { locationId: location.locationId, count: AUTH_RESERVATIONS, spacingS: 60 };
    const firstStartMs = Date.parse('2026-11-21T12:00:00Z');
    await seedReservations(ctx.databaseUrl, {
      ...seed,
      prefix: 'lk',
      firstStartMs,
      updatedAt: SEEDED_UPDATED_AT,
    });
    await seedReservations(ctx.databaseUrl, {
      ...seed,
      prefix: 'pk',
      firstStartMs,
      updatedAt: SEEDED_UPDATED_AT,
      providerId: provider.id,
    });
    return new ProviderAuth(location, provider);
  }

  private headers(credential: Credential): Record<string, string> {
    return credential === 'location'
      ? { authorization: `Bearer ${this.location.key}`, 'content-type': 'application/json' }
      : {
          authorization: `Bearer ${this.provider.key}`,
          'location-id': this.location.locationId,
          'content-type': 'application/json',
        };
  }

  /** The next applied PUT of `credential` to one of its own reservations. */
  private request(credential: Credential, onResponse?: (status: number) => void): autocannon.Request {
    const prefix = credential === 'location' ? 'lk' : 'pk';
    return {
      method: 'PUT',
      headers: this.headers(credential),
      setupRequest: (req) => {
        const k = this.counter++;
        const externalId = `${prefix}-${k % AUTH_RESERVATIONS}`;
        return {
          ...req,
          path: `${PROVIDER}/reservations/${externalId}`,
          body: this.body(externalId, iso(FIRST_WRITE_MS + k)),
        };
      },
      ...(onResponse ? { onResponse: (status: number) => onResponse(status) } : {}),
    };
  }

  private run(ctx: ScenarioContext, credential: Credential, durationS: number) {
    return runClosedLoop({
      url: ctx.services.baseUrl,
      connections: ctx.connections,
      durationS,
      headers: this.headers(credential),
      requests: [this.request(credential)],
      expected: ['200 applied'],
    });
  }

  /** One connection, the credentials alternating request by request: each one's latencies. */
  private async alternating(ctx: ScenarioContext, durationS: number): Promise<Record<Credential, number[]>> {
    const latencies: Record<Credential, number[]> = { location: [], provider: [] };
    let answered: { credential: Credential; status: number } | null = null;
    const requests = (['location', 'provider'] as const).map((credential) =>
      this.request(credential, (status) => (answered = { credential, status })),
    );
    await new Promise<void>((resolve, reject) => {
      const instance = autocannon(
        { url: ctx.services.baseUrl, connections: 1, duration: durationS, requests, timeout: 10 },
        (error) => (error ? reject(error) : resolve()),
      );
      instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
        const last = answered as { credential: Credential; status: number } | null;
        if (last !== null && last.status === 200) latencies[last.credential].push(ms);
        answered = null;
      });
    });
    return latencies;
  }

  async compare(ctx: ScenarioContext): Promise<ScenarioResult[]> {
    const half = Math.max(1, Math.round(ctx.durationS / 2));
    if (ctx.warmupS > 0) await this.alternating(ctx, ctx.warmupS);
    const paired = await measure(ctx, () => this.alternating(ctx, ctx.durationS));
    const location = summarize(paired.value.location);
    const provider = summarize(paired.value.provider);
    const costOf = (pick: (l: LatencySummary) => number) =>
      Number(((pick(provider) / pick(location) - 1) * 100).toFixed(1));
    const alternatingResult: ScenarioResult = {
      name: 'provider-auth',
      apiWorkers: ctx.services.apiWorkers,
      description:
        "PUT full bodies to each credential's own reservations on one connection, a location key and a provider key with Location-Id alternating request by request",
      load: null,
      usage: paired.usage,
      waits: paired.waits,
      metrics: {
        'location key: requests, p50, mean, p99 ms': `${location.count}, ${location.p50}, ${location.mean}, ${location.p99}`,
        'provider key + Location-Id: requests, p50, mean, p99 ms': `${provider.count}, ${provider.p50}, ${provider.mean}, ${provider.p99}`,
        'provider key cost on the write path, % of p50': costOf((l) => l.p50),
        'provider key cost on the write path, % of mean': costOf((l) => l.mean),
        target: 'at most 5 %',
      },
      timeline: [],
      notes: [
        'one connection, so every latency is one request through the write path with no queue in front of it',
      ],
      baselines: {},
    };
    const order = ['location', 'provider', 'provider', 'location'] as const;
    const runs: Measured<LoadResult>[] = [];
    for (const credential of order) runs.push(await measure(ctx, () => this.run(ctx, credential, half)));
    const rps = (credential: 'location' | 'provider') =>
      runs.filter((_, i) => order[i] === credential).reduce((sum, r) => sum + r.value.rps, 0) / 2;
    const cost = (1 - rps('provider') / rps('location')) * 100;
    const metrics = {
      'location key rps (mean of 2 runs)': Math.round(rps('location')),
      'provider key rps (mean of 2 runs)': Math.round(rps('provider')),
      'provider key + Location-Id, % of throughput lost': Number(cost.toFixed(1)),
    };
    const result = (name: string, run: Measured<LoadResult>, credential: string): ScenarioResult => ({
      name,
      apiWorkers: ctx.services.apiWorkers,
      description: `PUT full bodies to the credential's own existing reservations, each newer than the last, with ${credential}`,
      load: run.value,
      usage: run.usage,
      waits: run.waits,
      metrics,
      timeline: run.value.timeline,
      notes: [
        `runs of ${half} s alternate location key, provider key, provider key, location key; the figures shown are the later run of each, the metrics the mean of both`,
      ],
      baselines: {},
    });
    return [
      alternatingResult,
      result('provider-auth-location-key', runs[3]!, 'a location key'),
      result('provider-auth-provider-key', runs[2]!, 'a provider key and Location-Id'),
    ];
  }
}

/**
 * connections-page: a provider connected to 10,000 locations reads `GET /connections` pages
 * (100 a page) at random positions of its list, one page after the other on one connection
 * (a provider walking its list), so the p99 is a page's own time.
 */
export class ConnectionsPage {
  private constructor(
    private readonly provider: BenchProvider,
    private readonly pages: string[],
  ) {}

  static async provision(ctx: ScenarioContext): Promise<ConnectionsPage> {
    const provider = await createBenchProvider(ctx.services.baseUrl, 'Bench chain');
    // Locations, each with its own provider and connection (as the API stores them), and the
    // provider's grant at each, granted a millisecond apart; straight in SQL for speed.
    await withClient(ctx.databaseUrl, async (client) => {
      await seedLocations(
        client,
        { count: CONNECTED_LOCATIONS, name: 'Venue', brand: 'venue' },
        `INSERT INTO connections (location_id, provider_id, status, granted_at, covered)
         SELECT id, $4, 'active', now() + row_number() OVER (ORDER BY id) * interval '1 millisecond', '{[1,)}'
           FROM made`,
        [provider.id],
      );
      await client.query('VACUUM ANALYZE connections');
      await client.query('VACUUM ANALYZE locations');
    });
    const pages: string[] = [`${PROVIDER}/connections`];
    for (;;) {
      const page = await call<{ nextCursor: string | null }>(
        ctx.services.baseUrl,
        provider.key,
        'GET',
        pages.at(-1)!,
      );
      if (page.nextCursor === null) break;
      pages.push(`${PROVIDER}/connections?cursor=${page.nextCursor}`);
    }
    return new ConnectionsPage(provider, pages);
  }

  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const request: autocannon.Request = {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: this.pages[Math.floor(Math.random() * this.pages.length)]! }),
    };
    const loop = (durationS: number) =>
      runClosedLoop({
        url: ctx.services.baseUrl,
        connections: 1,
        durationS,
        headers: { authorization: `Bearer ${this.provider.key}` },
        requests: [request],
        expected: ['200'],
      });
    if (ctx.warmupS > 0) await loop(ctx.warmupS);
    const run = await measure(ctx, () => loop(ctx.durationS));
    return {
      name: 'connections-page',
      apiWorkers: ctx.services.apiWorkers,
      description: `GET /connections pages (100 connections each) at random positions of a provider's ${CONNECTED_LOCATIONS.toLocaleString('en')} connections`,
      load: run.value,
      usage: run.usage,
      waits: run.waits,
      metrics: { pages: this.pages.length, 'page p99 target, ms': 20 },
      timeline: run.value.timeline,
      notes: ['one connection, asking its next page when the last one answered'],
      baselines: {},
    };
  }
}
