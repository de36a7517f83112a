import { Client } from 'pg';
import { Instant } from '@pis/domain';
import { windowStatement } from '@pis/persistence';
import { runLoad } from '../load';
import { runPaced } from '../paced';
import { sampled, type ScenarioContext, type ScenarioResult } from '../scenario';
import { seedReservations, type BenchLocation } from '../seed';

export const LIST_RESERVATIONS = 1_000_000;
const FIRST_DAY = Date.parse('2000-01-01T00:00:00Z');
const DAY_MS = 86_400_000;
/** 864 s apart: 100 reservations a day over 10,000 days. */
const SPACING_S = 864;
const DAYS = Math.floor((LIST_RESERVATIONS * SPACING_S * 1000) / DAY_MS);

export async function seedListLocation(
  ctx: ScenarioContext,
  location: BenchLocation,
  count = LIST_RESERVATIONS,
) {
  await seedReservations(
    ctx.databaseUrl,
    location.locationId,
    'lw',
    count,
    new Date(FIRST_DAY).toISOString(),
    SPACING_S,
  );
}

/**
 * One-day windows (about 100 reservations each) in a location holding 1,000,000: closed
 * loop at full speed, or open loop at an even `rate` requests/s.
 */
export async function listWindow(
  ctx: ScenarioContext,
  location: BenchLocation,
  days = DAYS,
  rate?: number,
): Promise<ScenarioResult> {
  const day = () => FIRST_DAY + Math.floor(Math.random() * days) * DAY_MS;
  const path = () => {
    const from = day();
    return `/api/provider/v1/reservations?from=${new Date(from).toISOString()}&to=${new Date(from + DAY_MS).toISOString()}&limit=500`;
  };
  let returned = 0;
  const onResponse = (status: number, body: string) => {
    if (status === 200) returned += (body.match(/"externalId"/g) ?? []).length;
  };
  const headers = { authorization: `Bearer ${location.key}` };
  const { value: load, resources } = await sampled(ctx.services, () =>
    rate === undefined
      ? runLoad({
          url: ctx.services.baseUrl,
          connections: ctx.connections,
          durationS: ctx.durationS,
          headers,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }), onResponse }],
          expected: [200],
        })
      : runPaced({
          url: ctx.services.baseUrl,
          rate,
          durationS: ctx.durationS,
          connections: ctx.connections,
          headers,
          next: () => ({ method: 'GET', path: path() }),
          expected: [200],
          onResponse,
        }),
  );
  return {
    name: rate === undefined ? 'list-window' : 'list-window-half-rate',
    description: `GET one-day windows (about 100 reservations) in a location holding ${LIST_RESERVATIONS.toLocaleString('en')}`,
    load,
    resources,
    metrics: { 'reservations per answer': Math.round(returned / Math.max(1, load.requests)) },
    timeline: load.timeline,
    notes:
      rate === undefined
        ? [
            `${ctx.connections} connections, closed loop`,
            await explain(ctx.databaseUrl, location.locationId, day()),
          ]
        : [`open loop at an even ${rate} requests/s (half the measured maximum)`],
  };
}

/** The listing's own statement (from the persistence adapter), explained with ANALYZE and BUFFERS. */
async function explain(databaseUrl: string, locationId: string, from: number): Promise<string> {
  const statement = windowStatement({
    locationId,
    from: Instant.fromEpochMillis(from),
    to: Instant.fromEpochMillis(from + DAY_MS),
    after: null,
    limit: 501,
  })!;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.params);
    return [
      'Query plan of the window listing:',
      '```',
      ...plan.rows.map((r) => r['QUERY PLAN'] as string),
      '```',
    ].join('\n');
  } finally {
    await client.end();
  }
}
