import fc from 'fast-check';
import { componentSchemas, createValidator, MAX_INT32 } from '@pis/contract';
import { Harness, type TestLocation } from '../support/harness';
import { P, type Json } from '../support/wire';
import {
  epochMicros,
  expectAnswer,
  expectStoredWrite,
  expectUnchanged,
  fuzz,
  snapshot,
} from './support/fuzz-invariants';
import { mutantOf } from './support/fuzz-mutate';
import {
  hasUnstorableText,
  oneIn,
  RAW_SEGMENTS,
  sendJson,
  sendRaw,
  type Sent,
} from './support/fuzz-requests';
import { asSchema, dateTimeText, textOf, validOf, type Overrides } from './support/fuzz-schema';
import { rawBodyOf } from './support/fuzz-transport';

/**
 * Provider reservations under fuzzing (docs/reference/provider-api.md#reservations): POST and PUT bodies made
 * from the contract's schema and then broken, raw bodies that are not JSON or not labelled
 * as JSON, odd externalIds in the path, and the list's query. Over the real composition
 * root on PostgreSQL; see support/fuzz-invariants.ts for what each request must keep.
 */
const RESERVATION = asSchema(componentSchemas.ReservationRequest);
const validator = createValidator();

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

interface Scene {
  published: TestLocation;
  unpublished: TestLocation;
  ids: string[];
}

/** A published location (six tables, one taken by a walk-in) and one without a plan, both with a pool of externalIds. */
async function scene(tag: string): Promise<Scene> {
  const published = await h.location({ rooms: 2, tables: 3 });
  const unpublished = await h.location({ plan: 'none' });
  await h.walkIn(published, [published.tables[5]!]);
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `${tag}-${x}`);
  return { published, unpublished, ids };
}

/** Steers the fields the domain checks: ids from the pool, tables of the published plan, small covers. */
function steer({ published, ids }: Scene): Overrides {
  return (path) => {
    switch (path.join('/')) {
      case 'externalId':
        return fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...ids) },
          { weight: 1, arbitrary: textOf(1, 128) },
        );
      case 'tableIds':
        return fc.oneof(
          { weight: 3, arbitrary: fc.constant([]) },
          { weight: 4, arbitrary: fc.shuffledSubarray(published.tables, { minLength: 1, maxLength: 3 }) },
          {
            weight: 1,
            arbitrary: fc.uniqueArray(
              fc.oneof(fc.uuid(), textOf(1, 40), fc.constantFrom(...published.tables)),
              {
                minLength: 1,
                maxLength: 3,
              },
            ),
          },
        );
      case 'covers':
        return fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: 1, max: 12 }) },
          fc.integer({ min: 1, max: MAX_INT32 }),
        );
      default:
        return undefined;
    }
  };
}

interface Outcomes {
  applied: number;
  stale: number;
  refused: number;
}

/**
 * One write and what it must keep: a refusal or a stale write changes nothing stored; an
 * accepted one stores what its response says (and, when applied, what was sent).
 */
async function checkedWrite(
  loc: TestLocation,
  send: () => Promise<Sent>,
  sent: unknown,
  seen: Outcomes,
): Promise<Sent> {
  const before = await snapshot(h.db);
  const result = await send();
  const { res, context } = result;
  expectAnswer(res, context);
  if (res.status >= 400) {
    seen.refused += 1;
    await expectUnchanged(h.db, before, context);
    return result;
  }
  await expectStoredWrite(h.db, loc.id, sent as Json, res, context);
  if (res.body.outcome === 'stale') {
    seen.stale += 1;
    await expectUnchanged(h.db, before, context);
  } else {
    seen.applied += 1;
  }
  return result;
}

/** The PUT path of `externalId`; an empty one, or one with a lone surrogate (which cannot be percent-encoded), uses `fallback`. */
function pathOf(externalId: unknown, fallback = 'unencodable'): string {
  // An empty id would make the path the collection's (405 for PUT), not a reservation's.
  if (externalId === '') return `${P}/reservations/${fallback}`;
  try {
    return `${P}/reservations/${encodeURIComponent(String(externalId))}`;
  } catch {
    return `${P}/reservations/${fallback}`;
  }
}

it('When valid-by-construction reservations are written with POST and PUT, then each is applied, stale or refused whole', async () => {
  const s = await scene('valid');
  const seen: Outcomes = { applied: 0, stale: 0, refused: 0 };
  const writes = fc.record({
    where: fc.constantFrom('published', 'published', 'published', 'unpublished'),
    method: fc.constantFrom('post' as const, 'put' as const),
    body: validOf(RESERVATION, steer(s)),
    // Mostly the body's own externalId in the path; sometimes another one.
    otherPathId: oneIn(6, fc.constantFrom(...s.ids)),
  });

  await fuzz(
    writes,
    async ({ where, method, body, otherPathId }) => {
      const loc = where === 'published' ? s.published : s.unpublished;
      const json = body as Json;
      const path = method === 'post' ? `${P}/reservations` : pathOf(otherPathId ?? json['externalId']);
      await checkedWrite(loc, () => sendJson(loc.api, method, path, json), json, seen);
    },
    120,
  );

  // The generator must reach both sides, or the checks above would prove little.
  expect(seen.applied).toBeGreaterThan(10);
  expect(seen.refused).toBeGreaterThan(10);
}, 120_000);

it('When reservation bodies are mutated, then every one the contract refuses is 422 validation_failed and nothing is stored', async () => {
  const s = await scene('mutant');
  const seen: Outcomes = { applied: 0, stale: 0, refused: 0 };
  const writes = fc.record({
    method: fc.constantFrom('post' as const, 'put' as const),
    mutant: mutantOf(RESERVATION, validOf(RESERVATION, steer(s))),
    pathId: fc.constantFrom(...s.ids),
  });

  await fuzz(
    writes,
    async ({ method, mutant, pathId }) => {
      const { body, mutation } = mutant;
      const own = (body as Json | null)?.['externalId'];
      const path =
        method === 'post'
          ? `${P}/reservations`
          : typeof own === 'string'
            ? pathOf(own, pathId)
            : pathOf(pathId);
      const { res, context } = await checkedWrite(
        s.published,
        () => sendJson(s.published.api, method, path, body),
        body,
        seen,
      );
      if (!validator.check('ReservationRequest', body).ok || hasUnstorableText(body)) {
        expect({ mutation, context, status: res.status, code: res.body?.error?.code }).toEqual({
          mutation,
          context,
          status: 422,
          code: 'validation_failed',
        });
      }
    },
    150,
  );

  expect(seen.refused).toBeGreaterThan(100);
}, 120_000);

it('When reservation writes carry bodies that are not JSON, are mislabelled or oddly encoded, then each is a 4xx that stores nothing, or an accepted write', async () => {
  const s = await scene('raw');
  const seen: Outcomes = { applied: 0, stale: 0, refused: 0 };
  const writes = fc.record({
    method: fc.constantFrom('post' as const, 'put' as const),
    raw: rawBodyOf(validOf(RESERVATION, steer(s))),
    pathId: fc.constantFrom(...s.ids),
  });

  await fuzz(
    writes,
    async ({ method, raw, pathId }) => {
      const path = method === 'post' ? `${P}/reservations` : pathOf(pathId);
      let sent: unknown;
      try {
        sent = JSON.parse(typeof raw.text === 'string' ? raw.text : raw.text.toString('utf8'));
      } catch {
        sent = undefined;
      }
      const { res, context } = await checkedWrite(
        s.published,
        () => sendRaw(s.published.api, method, path, raw),
        sent,
        seen,
      );
      if (raw.description.startsWith('not JSON')) {
        expect({ context, status: res.status }).toEqual({ context, status: 400 });
      }
    },
    80,
  );

  expect(seen.refused).toBeGreaterThan(40);
}, 120_000);

it('When externalIds with odd characters are created and then addressed in the path, then the PUT reaches the same reservation', async () => {
  const s = await scene('path');
  const odd = fc.oneof(
    textOf(1, 128),
    fc.constantFrom(
      '/',
      '..',
      '.',
      '%',
      '%2F',
      '?x=1',
      '#top',
      'a/b/c',
      ' ',
      '+',
      '\\',
      'é',
      '😀',
      '\u202e',
      'x'.repeat(128),
    ),
  );

  await fuzz(
    fc.record({ externalId: odd, startsAt: dateTimeText }),
    async ({ externalId, startsAt }) => {
      const body = { externalId, status: 'booked', covers: 2, startsAt, updatedAt: '2026-01-01T00:00:00Z' };
      const seen: Outcomes = { applied: 0, stale: 0, refused: 0 };
      const created = await checkedWrite(
        s.published,
        () => sendJson(s.published.api, 'post', `${P}/reservations`, body),
        body,
        seen,
      );
      const later = { ...body, covers: 3, updatedAt: '2026-01-02T00:00:00Z' };
      const { res, context } = await checkedWrite(
        s.published,
        () => sendJson(s.published.api, 'put', pathOf(externalId), later),
        later,
        seen,
      );
      // A new id is created; one the generator repeated is a duplicate, and its PUT may then be stale.
      const outcomes = created.res.status === 201 ? ['applied'] : ['applied', 'stale'];
      expect({ context, created: [201, 409].includes(created.res.status) }).toEqual({
        context,
        created: true,
      });
      expect({ context, status: res.status, expected: outcomes.includes(res.body.outcome) }).toEqual({
        context,
        status: 200,
        expected: true,
      });
    },
    60,
  );
}, 120_000);

it('When the path carries bytes that are not valid percent-encoding, then the answer is a 4xx in the envelope and nothing is stored', async () => {
  const s = await scene('raw-path');
  const seen: Outcomes = { applied: 0, stale: 0, refused: 0 };
  await fuzz(
    fc.record({ segment: fc.constantFrom(...RAW_SEGMENTS), prefix: fc.constantFrom('', 'a', s.ids[0]!) }),
    async ({ segment, prefix }) => {
      const body = {
        externalId: `${prefix}${segment}`,
        status: 'booked',
        covers: 2,
        startsAt: '2026-11-21T19:00Z',
        updatedAt: '2026-01-01T00:00Z',
      };
      await checkedWrite(
        s.published,
        () => sendJson(s.published.api, 'put', `${P}/reservations/${prefix}${segment}`, body),
        body,
        seen,
      );
    },
    30,
  );
}, 60_000);

describe('GET /reservations under fuzzed queries', () => {
  it('When the list is asked with any query, then it is a 200 inside the window or 422 validation_failed, and nothing changes', async () => {
    const s = await scene('list');
    // Thirty reservations in November 2026, so windows there find something to page through.
    for (let i = 0; i < 30; i += 1) {
      const startsAt = `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00Z`;
      await sendJson(s.published.api, 'post', `${P}/reservations`, {
        externalId: `list-${i}`,
        status: i % 7 === 0 ? 'cancelled' : 'booked',
        covers: 2,
        startsAt,
        updatedAt: '2026-01-01T00:00Z',
      });
    }
    const page = await s.published.api
      .get(`${P}/reservations?from=2026-11-01T00:00Z&to=2026-12-01T00:00Z&limit=3`)
      .expect(200);
    const realCursor = page.body.nextCursor as string;
    const forged = (k: string, t: string, i: string) =>
      Buffer.from(JSON.stringify({ k, t, i })).toString('base64url');
    const cursor = fc.oneof(
      fc.constant(realCursor),
      fc.constantFrom(
        forged('r', '0', '00000000-0000-0000-0000-000000000000'),
        forged('r', '1795000000000000', 'not-a-uuid'),
        forged('r', '1795000000000000', "x' OR 1=1 --"),
        forged('r', '1795000000000000', 'a\u0000b'),
        forged('r', '-62135596800000000', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
        forged('r', '99999999999999999999', 'x'),
        forged('d', '0', '00000000-0000-0000-0000-000000000000'),
        forged('r', '1e3', 'x'),
        'not base64!',
        realCursor.slice(0, -2),
        `${realCursor}AA`,
        'x'.repeat(513),
      ),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/),
    );
    const instant = fc.oneof(
      {
        weight: 4,
        arbitrary: dateTimeText
          .map((t) => t.replace(/^\d{4}-\d{2}/, '2026-11'))
          .filter((t) => validator.check('ReservationListQuery', { from: t, to: t }).ok),
      },
      { weight: 2, arbitrary: dateTimeText },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '2026-11-31T00:00Z',
          'yesterday',
          '',
          '2026-11-01',
          '1763751600',
          '2026-11-01T00:00:00+24:00',
        ),
      },
    );
    const limit = fc.oneof(
      fc.integer({ min: -5, max: 600 }).map(String),
      fc.constantFrom(
        '1.5',
        'abc',
        '',
        '0x10',
        ' 5',
        '5 ',
        '+5',
        '05',
        '1e2',
        '2147483648',
        '99999999999999999999',
        '-0',
      ),
    );
    // Each parameter: mostly once, sometimes missing, sometimes repeated.
    const param = (name: string, values: fc.Arbitrary<string>) =>
      fc.oneof(
        { weight: 8, arbitrary: values.map((v) => [[name, v] as const]) },
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.tuple(values, values).map((vs) => vs.map((v) => [name, v] as const)) },
      );
    // A window that fits (up to 31 days in or around November 2026) most of the time, else each bound on its own.
    const DAY = 86_400_000;
    const fitting = fc
      .record({
        from: fc.integer({ min: Date.UTC(2026, 9, 20), max: Date.UTC(2026, 11, 1) }),
        days: fc.double({ min: 0.01, max: 31, noNaN: true }),
      })
      .map(({ from, days }) => [
        ['from', new Date(from).toISOString()] as const,
        ['to', new Date(from + Math.floor(days * DAY)).toISOString()] as const,
      ]);
    const window = fc.oneof(
      { weight: 3, arbitrary: fitting },
      {
        weight: 2,
        arbitrary: fc.tuple(param('from', instant), param('to', instant)).map(([f, t]) => [...f, ...t]),
      },
    );
    const query = fc
      .record({
        window,
        limit: oneIn(2, param('limit', limit)),
        cursor: oneIn(3, param('cursor', cursor)),
        // Parameters the list does not have (status is the order and delivery lists'), odd spellings, odd encodings.
        extra: oneIn(
          8,
          fc.constantFrom(
            ['status', 'booked'] as const,
            ['extra', '1'] as const,
            ['FROM', '2026-11-01T00:00Z'] as const,
            ['from[]', 'x'] as const,
            ['to[a]', 'b'] as const,
          ),
        ),
        raw: oneIn(
          10,
          fc.constantFrom('from=%ZZ', 'to=%ED%A0%80', 'limit=%00', '%ZZ=1', 'cursor=%FF', '&&&', '=', 'from'),
        ),
      })
      .map((q) => {
        const pairs = [...q.window, ...(q.limit ?? []), ...(q.cursor ?? []), ...(q.extra ? [q.extra] : [])];
        const text = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
        if (q.raw) text.push(q.raw);
        return { pairs, text: text.join('&'), raw: q.raw };
      });

    let listed = 0;
    await fuzz(
      query,
      async ({ pairs, text, raw }) => {
        const before = await snapshot(h.db);
        const { res, context } = await sendJson(s.published.api, 'get', `${P}/reservations?${text}`);
        expectAnswer(res, context);
        await expectUnchanged(h.db, before, context);
        const one = (name: string) => {
          const values = pairs.filter(([k]) => k === name).map(([, v]) => v);
          return values.length === 1 ? values[0]! : undefined;
        };
        if (res.status !== 200) {
          if (process.env.DEBUG_FUZZ) console.log(context, res.text.slice(0, 300));
          expect({ context, status: res.status, code: res.body.error.code }).toEqual({
            context,
            status: 422,
            code: 'validation_failed',
          });
          return;
        }
        listed += 1;
        const from = epochMicros(one('from')!);
        const to = epochMicros(one('to')!);
        const limitValue = one('limit') === undefined ? 100 : Number(one('limit'));
        const rows = res.body.reservations as Json[];
        expect(rows.length).toBeLessThanOrEqual(limitValue);
        for (const r of rows) {
          const at = epochMicros(r['startsAt'] as string);
          expect({ context, startsAt: r['startsAt'], inside: at >= from - 999n && at < to }).toEqual({
            context,
            startsAt: r['startsAt'],
            inside: true,
          });
        }
        const keys = rows.map(
          (r) => `${String(epochMicros(r['startsAt'] as string)).padStart(22, '0')} ${r['id']}`,
        );
        expect(keys).toEqual([...keys].sort());
        void raw;
      },
      100,
    );
    expect(listed).toBeGreaterThan(8);
  }, 120_000);
});
