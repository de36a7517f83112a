/**
 * What every fuzzed request must keep, whatever it sent:
 * - the answer is 2xx, or 4xx in the error envelope (JSON, X-Request-Id, a code of the
 *   contract, no internals) — never 5xx; a 2xx matches the OpenAPI document (Client);
 * - a refused request (and a read, and a stale write) leaves the stored state exactly as it
 *   was: every row of every table, compared as JSON before and after;
 * - an accepted reservation write stores what its response says, and says what was sent.
 *
 * Runs: `fuzz()` wraps `fc.assert` with one seed per file run, `FUZZ_SEED` when set, so a
 * failure report names the seed that replays the whole file.
 */
import fc from 'fast-check';
import type { Response } from 'supertest';
import type { TestDatabase } from '@pis/persistence/test-support';
import { ERROR_CODE_VALUES } from '@pis/contract';
import { expectEnvelope } from '../../support/envelope';
import { requestFieldsOf, type Json } from '../../support/wire';

/** `FUZZ_RUNS_SCALE=5` runs every property five times as often (a longer hunt than CI's). */
const RUNS_SCALE = Number(process.env['FUZZ_RUNS_SCALE'] ?? 1);

export const FUZZ_SEED = process.env['FUZZ_SEED']
  ? Number(process.env['FUZZ_SEED'])
  : Date.now() % 2_147_483_647;

/** Runs a property `numRuns` times; a failure is rethrown with the seed that replays this file. */
export async function fuzz<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
): Promise<void> {
  try {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        await predicate(value);
      }),
      {
        seed: FUZZ_SEED,
        numRuns: Math.max(1, Math.round(numRuns * RUNS_SCALE)),
        endOnFailure: process.env['FUZZ_SHRINK'] !== 'true',
        includeErrorInReport: true,
      },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Replay with: FUZZ_SEED=${FUZZ_SEED}${RUNS_SCALE === 1 ? '' : ` FUZZ_RUNS_SCALE=${RUNS_SCALE}`} ` +
        `npx jest ${expect.getState().testPath ?? ''} ` +
        `(FUZZ_SHRINK=true to shrink the counterexample)\n${message}`,
    );
  }
}

/** A 2xx, or a 4xx in the contract's error envelope; never a 5xx. */
export function expectAnswer(res: Response, context: string): void {
  if (res.status >= 200 && res.status < 300) {
    expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    return;
  }
  const code = res.body?.error?.code;
  if (res.status < 400 || res.status >= 500 || !(ERROR_CODE_VALUES as readonly unknown[]).includes(code)) {
    throw new Error(
      `expected a 2xx, or a 4xx with one of the contract's codes; got ${res.status}\n` +
        `request: ${context}\nresponse: ${res.text?.slice(0, 500)}`,
    );
  }
  expectEnvelope(res, res.status, code);
}

const TABLES = [
  'locations',
  'api_keys',
  'floor_plans',
  'rooms',
  'dining_tables',
  'floor_plan_versions',
  'orders',
  'reservations',
  'outbox_events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
] as const;

const SNAPSHOT_SQL = `SELECT json_build_object(${TABLES.map(
  (t) => `'${t}', (SELECT coalesce(json_agg(t ORDER BY t::text), '[]'::json) FROM ${t} t)`,
).join(', ')})::text AS state`;

/** Every row of every table, as JSON text: what "the stored state" means here. */
export async function snapshot(db: TestDatabase): Promise<string> {
  const rows: { state: string }[] = await db.dataSource.query(SNAPSHOT_SQL);
  return rows[0]!.state;
}

/** The stored state is exactly `before`; otherwise the differing tables are shown. */
export async function expectUnchanged(db: TestDatabase, before: string, context: string): Promise<void> {
  const after = await snapshot(db);
  if (after === before) return;
  const was = JSON.parse(before) as Record<string, unknown>;
  const now = JSON.parse(after) as Record<string, unknown>;
  const changed = TABLES.filter((t) => JSON.stringify(was[t]) !== JSON.stringify(now[t]));
  expect({ context, changed, now: pick(now, changed) }).toEqual({
    context,
    changed: [],
    now: pick(was, changed),
  });
}

const pick = (o: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, o[k]]));

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * Epoch microseconds of a date-time the contract accepts, computed here on its own (not
 * with the domain's parser): the calendar fields in UTC, minus the offset, the fraction
 * truncated to microseconds.
 */
export function epochMicros(text: string): bigint {
  const m = DATE_TIME.exec(text);
  if (!m) throw new Error(`not a date-time: ${text}`);
  const [, y, mo, d, h, mi, s, frac, zone, sign, oh, om] = m;
  const date = new Date(Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)));
  date.setUTCFullYear(Number(y));
  const offsetMinutes = zone === 'Z' ? 0 : (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1);
  const micros = BigInt((frac ?? '').padEnd(6, '0').slice(0, 6));
  return BigInt(date.getTime() - offsetMinutes * 60_000) * 1000n + micros;
}

/** The wire rendering of epoch microseconds: UTC, `Z`, milliseconds (floored, also before 1970). */
export function renderMicros(micros: bigint): string {
  let ms = micros / 1000n;
  if (micros < 0n && micros % 1000n !== 0n) ms -= 1n;
  return new Date(Number(ms)).toISOString();
}

const render = (text: string) => renderMicros(epochMicros(text));
const renderNullable = (text: unknown) => (text == null ? null : render(text as string));

/** What a response must say for an applied reservation write of `body` (defaults filled, instants re-rendered). */
export function expectedReservationFields(body: Json): Json {
  // Through JSON once, as the response went: -0 is sent as written but answered as 0.
  const fields = requestFieldsOf(JSON.parse(JSON.stringify(body)) as Json);
  const guest = fields['guest'] as Json | null;
  return {
    ...fields,
    startsAt: render(fields['startsAt'] as string),
    endsAt: renderNullable(fields['endsAt']),
    updatedAt: render(fields['updatedAt'] as string),
    guest:
      guest === null
        ? null
        : {
            ...guest,
            memberSince: renderNullable(guest['memberSince']),
            recentVisits: (guest['recentVisits'] as Json[]).map((v) => ({
              ...v,
              occurredAt: render(v['occurredAt'] as string),
            })),
          },
  };
}

/** `2026-11-21T19:00:00.123456Z` (how instants inside jsonb are kept) as the wire renders it. */
const jsonInstant = (text: unknown) => (text == null ? null : renderMicros(epochMicros(text as string)));

/**
 * The stored reservation of `externalId` at `locationId`, read with SQL and put in the wire
 * form (instants as epoch microseconds, rendered here), with the microseconds of its
 * instants beside it; null when there is none.
 */
export async function storedReservation(
  db: TestDatabase,
  locationId: string,
  externalId: string,
): Promise<{ wire: Json; micros: Record<string, string | null> } | null> {
  const rows: Json[] = await db.dataSource.query(
    `SELECT id, external_id, status, party_name, covers, table_ids, guest, internal_note, prepayment,
            pos_order_id, linked_order_id,
            (extract(epoch FROM starts_at) * 1000000)::bigint::text AS starts_at,
            (extract(epoch FROM ends_at) * 1000000)::bigint::text AS ends_at,
            (extract(epoch FROM updated_at) * 1000000)::bigint::text AS updated_at,
            (extract(epoch FROM arrived_at) * 1000000)::bigint::text AS arrived_at,
            (extract(epoch FROM received_at) * 1000000)::bigint::text AS received_at
       FROM reservations WHERE location_id = $1 AND external_id = $2`,
    [locationId, externalId],
  );
  const row = rows[0];
  if (!row) return null;
  const instant = (key: string) => (row[key] === null ? null : renderMicros(BigInt(row[key] as string)));
  const guest = row['guest'] as Json | null;
  return {
    micros: {
      startsAt: row['starts_at'] as string,
      endsAt: row['ends_at'] as string | null,
      updatedAt: row['updated_at'] as string,
    },
    wire: {
      id: row['id'],
      externalId: row['external_id'],
      status: row['status'],
      partyName: row['party_name'],
      covers: row['covers'],
      startsAt: instant('starts_at'),
      endsAt: instant('ends_at'),
      tableIds: row['table_ids'],
      guest:
        guest === null
          ? null
          : {
              ...guest,
              memberSince: jsonInstant(guest['memberSince']),
              recentVisits: (guest['recentVisits'] as Json[]).map((v) => ({
                ...v,
                occurredAt: jsonInstant(v['occurredAt']),
              })),
            },
      internalNote: row['internal_note'],
      prepayment: row['prepayment'],
      posOrderId: row['pos_order_id'],
      updatedAt: instant('updated_at'),
      linkedOrderId: row['linked_order_id'],
      arrivedAt: instant('arrived_at'),
      receivedAt: instant('received_at'),
    },
  };
}

/**
 * After a 2xx reservation write: the stored reservation is the one the response carries;
 * when applied, the response says what was sent (to the millisecond) and the store keeps
 * its instants to the microsecond.
 */
export async function expectStoredWrite(
  db: TestDatabase,
  locationId: string,
  sent: Json,
  res: Response,
  context: string,
): Promise<void> {
  const reservation = res.body.reservation as Json;
  const stored = await storedReservation(db, locationId, reservation['externalId'] as string);
  expect({ context, stored: stored?.wire }).toEqual({ context, stored: reservation });
  if (res.body.outcome !== 'applied') return;
  const { id: _id, linkedOrderId: _l, arrivedAt: _a, receivedAt: _r, ...fields } = reservation;
  expect({ context, fields }).toEqual({ context, fields: expectedReservationFields(sent) });
  const micros = {
    startsAt: String(epochMicros(sent['startsAt'] as string)),
    endsAt: sent['endsAt'] == null ? null : String(epochMicros(sent['endsAt'] as string)),
    updatedAt: String(epochMicros(sent['updatedAt'] as string)),
  };
  expect({ context, micros: stored!.micros }).toEqual({ context, micros });
}
