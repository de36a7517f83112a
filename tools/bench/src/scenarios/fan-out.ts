import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { BACKOFFICE, BACKOFFICE_TOKEN, call, PROVIDER } from '../api-client';
import { withClient } from '../database';
import { round } from '../report/stats';
import { measure, type ScenarioContext, type ScenarioResult } from '../scenario';
import { provisionLocation, seedLocations, type BenchLocation } from '../seed';
import { createBenchProvider } from './providers';
import { BURST_SQL, cpuPerDelivery } from './webhook-pipeline';

/** Endpoints wanting each event in the runs of webhook-fan-out. */
export const FAN_OUT_ENDPOINTS = [1, 10, 100] as const;
/** Locations, each with its own provider and an endpoint, in the crowded service. */
export const CROWD_LOCATIONS = 20_000;
/** Providers connected to every crowd location and to the measured one (without endpoints there). */
export const CROWD_PROVIDERS = 20;
const ENDPOINTS_PER_SCOPE = 10;
const BURST_TX = 500;

/**
 * A loopback receiver counting deliveries (one event reaches every endpoint, each on its own
 * path, with the same `webhook-id`): resolves once as many as expected arrived.
 */
class CountingReceiver {
  private server: Server | null = null;
  private arrived = 0;
  private readonly paths = new Map<string, number>();
  private waiting: { count: number; resolve: () => void } | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.arrived++;
        this.paths.set(req.url ?? '', (this.paths.get(req.url ?? '') ?? 0) + 1);
        res.writeHead(204).end();
        if (this.waiting && this.arrived >= this.waiting.count) this.waiting.resolve();
      });
    });
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Forgets what arrived (between runs). */
  reset(): void {
    this.arrived = 0;
    this.paths.clear();
  }

  /** How many paths received exactly `count` deliveries. */
  pathsWith(count: number): number {
    return [...this.paths.values()].filter((n) => n === count).length;
  }

  until(count: number, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(
          new Error(`${count - this.arrived} of ${count} deliveries did not arrive within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiting = null;
        resolve(Date.now());
      };
      this.waiting = { count, resolve: done };
      if (this.arrived >= count) done();
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** POST /webhook-endpoints with a location key, or a provider key naming the location. */
async function createEndpoint(
  baseUrl: string,
  key: string,
  locationId: string | null,
  url: string,
): Promise<void> {
  const res = await fetch(`${baseUrl}${PROVIDER}/webhook-endpoints`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(locationId ? { 'location-id': locationId } : {}),
    },
    body: JSON.stringify({ url }),
  });
  if (res.status !== 201)
    throw new Error(`POST /webhook-endpoints answered ${res.status}: ${await res.text()}`);
}

/**
 * A location whose events `endpoints` endpoints want: up to ten of its own provider's, beyond
 * that ten of each of further providers connected to it.
 */
async function locationWithEndpoints(
  ctx: ScenarioContext,
  origin: string,
  endpoints: number,
  name: string,
): Promise<BenchLocation> {
  const base = ctx.services.baseUrl;
  const location = await provisionLocation(base, name, 2);
  const url = (i: number) => `${origin}/fan-out/${location.locationId}/${i}`;
  let made = 0;
  for (; made < Math.min(endpoints, ENDPOINTS_PER_SCOPE); made++) {
    await createEndpoint(base, location.key, null, url(made));
  }
  while (made < endpoints) {
    const provider = await createBenchProvider(base, `Bench fan-out reader ${made}`);
    await call(
      base,
      BACKOFFICE_TOKEN,
      'PUT',
      `${BACKOFFICE}/locations/${location.locationId}/connections/${provider.id}`,
    );
    for (let i = 0; i < ENDPOINTS_PER_SCOPE && made < endpoints; i++, made++) {
      await createEndpoint(base, provider.key, location.locationId, url(made));
    }
  }
  return location;
}

/**
 * Crowds the service: `CROWD_LOCATIONS` locations, each with its own provider, connection and
 * one endpoint (a copy of a real endpoint's row, so its secret is a valid one), and
 * `CROWD_PROVIDERS` providers connected to every one of them and to `measured` as well, with
 * no endpoint at `measured`: none of them wants its events. Straight in SQL for speed.
 */
async function crowd(ctx: ScenarioContext, template: BenchLocation, measured: BenchLocation): Promise<void> {
  const providers: string[] = [];
  for (let i = 0; i < CROWD_PROVIDERS; i++) {
    providers.push((await createBenchProvider(ctx.services.baseUrl, `Bench crowd ${i}`)).id);
  }
  await withClient(ctx.databaseUrl, async (client) => {
    const { rows } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'webhook_endpoints'
          AND column_name NOT IN ('id', 'location_id', 'provider_id', 'url', 'singleton')
        ORDER BY ordinal_position`,
    );
    const copied = rows.map((r) => r.column_name);
    await seedLocations(
      client,
      { count: CROWD_LOCATIONS, name: 'Crowd', brand: 'crowd' },
      `, others AS (
         INSERT INTO connections (location_id, provider_id, status, granted_at, covered)
         SELECT made.id, p, 'active', now(), '{[1,)}' FROM made, unnest($5::uuid[]) p)
       INSERT INTO webhook_endpoints (id, location_id, provider_id, url, singleton, ${copied.join(', ')})
       SELECT gen_random_uuid(), made.id, made.id, 'http://127.0.0.1:9/crowd', false, ${copied.map((c) => `t.${c}`).join(', ')}
         FROM made, (SELECT * FROM webhook_endpoints WHERE location_id = $4 LIMIT 1) t`,
      [template.locationId, providers],
    );
    await client.query(
      `INSERT INTO connections (location_id, provider_id, status, granted_at, covered)
       SELECT $1, p, 'active', now(), '{[1,)}' FROM unnest($2::uuid[]) p`,
      [measured.locationId, providers],
    );
    for (const table of ['locations', 'providers', 'connections', 'webhook_endpoints']) {
      await client.query(`VACUUM ANALYZE ${table}`);
    }
  });
}

/**
 * webhook-fan-out: a location's events delivered to 1, 10 and 100 endpoints that want them
 * (bursts of `deliveries / endpoints` events, so every run makes the same number of
 * deliveries), then 10 endpoints again in a service crowded with 20,000 more locations, their
 * endpoints and 20 more providers (connected to the measured location too, without endpoints
 * there). Fan-out costs per wanting endpoint: the CPU per delivery stays flat across the runs.
 */
export async function webhookFanOut(ctx: ScenarioContext, deliveries: number): Promise<ScenarioResult[]> {
  const receiver = new CountingReceiver();
  const origin = await receiver.start();
  const pool = new Pool({ connectionString: ctx.databaseUrl, max: 4, application_name: 'pis-bench' });
  const burst = async (location: BenchLocation, count: number) => {
    for (let sent = 0; sent < count; sent += BURST_TX) {
      await pool.query(BURST_SQL, [
        location.locationId,
        location.tableIds[0],
        Math.min(BURST_TX, count - sent),
      ]);
    }
  };
  const results: ScenarioResult[] = [];
  const run = async (location: BenchLocation, endpoints: number, name: string, setting: string) => {
    const events = Math.ceil(deliveries / endpoints);
    const total = events * endpoints;
    ctx.log(`webhook-fan-out: ${name}: warm-up`);
    receiver.reset();
    await burst(location, 20);
    await receiver.until(20 * endpoints, 120_000);
    receiver.reset();
    ctx.log(`webhook-fan-out: ${name}: ${events.toLocaleString('en')} events to ${endpoints} endpoints`);
    const measured = await measure(ctx, async () => {
      const started = Date.now();
      await burst(location, events);
      const committedMs = Date.now() - started;
      const last = await receiver.until(total, 300_000);
      return { committedMs, drainedMs: last - started };
    });
    const { committedMs, drainedMs } = measured.value;
    results.push({
      name,
      apiWorkers: null,
      description: `${events.toLocaleString('en')} committed table events (transactions of ${BURST_TX}) at one location, each delivered to the ${endpoints} endpoint(s) that want it (${setting}), by the worker to a loopback receiver`,
      load: null,
      usage: measured.usage,
      waits: measured.waits,
      metrics: {
        endpoints,
        events,
        deliveries: total,
        'endpoints that got every event': receiver.pathsWith(events),
        'events committed in ms': committedMs,
        'last delivery after ms': drainedMs,
        'deliveries/s (from the first commit)': round((total / drainedMs) * 1000, 0),
        ...cpuPerDelivery(measured, total),
      },
      timeline: [],
      notes: [setting],
      baselines: {},
    });
  };
  try {
    const locations = new Map<number, BenchLocation>();
    for (const endpoints of FAN_OUT_ENDPOINTS) {
      ctx.log(`webhook-fan-out: a location with ${endpoints} endpoints`);
      locations.set(
        endpoints,
        await locationWithEndpoints(ctx, origin, endpoints, `Bench fan-out ${endpoints}`),
      );
    }
    for (const endpoints of FAN_OUT_ENDPOINTS) {
      await run(
        locations.get(endpoints)!,
        endpoints,
        `webhook-fan-out-${endpoints}`,
        'a service of a few locations',
      );
    }
    ctx.log(
      `webhook-fan-out: crowding the service with ${CROWD_LOCATIONS.toLocaleString('en')} locations and ${CROWD_PROVIDERS} providers`,
    );
    const crowded = await locationWithEndpoints(ctx, origin, 10, 'Bench fan-out crowded');
    await crowd(ctx, locations.get(1)!, crowded);
    await run(
      crowded,
      10,
      'webhook-fan-out-10-crowded',
      `${CROWD_LOCATIONS.toLocaleString('en')} more locations with an endpoint each and ${CROWD_PROVIDERS} more providers connected to all of them and to this location, without endpoints here`,
    );
    return results;
  } finally {
    await pool.end();
    await receiver.stop();
  }
}
