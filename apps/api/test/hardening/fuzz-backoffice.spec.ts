import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { componentSchemas, createValidator, type ComponentName } from '@pis/contract';
import { checkData, Instant, makeCheck, type CheckLines } from '@pis/domain';
import { Harness, type TestLocation } from '../support/harness';
import { B, P, type Json } from '../support/wire';
import { expectAnswer, expectUnchanged, fuzz, renderMicros, snapshot } from './support/fuzz-invariants';
import { mutantOf } from './support/fuzz-mutate';
import {
  decodes,
  hasUnstorableText,
  junkIds,
  oneIn,
  sendJson,
  sendRaw,
  type Method,
  type Sent,
} from './support/fuzz-requests';
import { asSchema, validOf, type Overrides } from './support/fuzz-schema';
import { rawBodyOf, type RawBody } from './support/fuzz-transport';

/**
 * The operator surface under fuzzing (docs/reference/backoffice-api.md): every backoffice operation
 * with bodies made from the contract's schemas and then broken, raw bodies, and path ids
 * that are real, another location's, unknown or not ids at all. A refusal changes nothing
 * stored; an accepted command stores what its response says.
 */
const validator = createValidator();
const schema = (name: ComponentName) => asSchema(componentSchemas[name]);

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** A body as the fuzzer sends it: JSON (valid or a mutant) or raw bytes with their own headers. */
type Body = { json: unknown; mutation?: string } | { raw: RawBody };

/** Valid bodies (steered or not), mutants and raw bodies of one request schema. */
function bodiesOf(name: ComponentName, steer?: Overrides): fc.Arbitrary<Body> {
  const s = schema(name);
  const valid = steer ? fc.oneof({ weight: 3, arbitrary: validOf(s, steer) }, validOf(s)) : validOf(s);
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((json): Body => ({ json })) },
    {
      weight: 4,
      arbitrary: mutantOf(s, valid).map(({ body, mutation }): Body => ({ json: body, mutation })),
    },
    { weight: 1, arbitrary: rawBodyOf(valid).map((raw): Body => ({ raw })) },
  );
}

/** Sends, checks the answer, and checks that a refusal left every table as it was. */
async function send(method: Method, path: string, body?: Body): Promise<Sent> {
  const before = await snapshot(h.db);
  const sent =
    body === undefined
      ? await sendJson(h.operator, method, path)
      : 'raw' in body
        ? await sendRaw(h.operator, method, path, body.raw)
        : await sendJson(h.operator, method, path, body.json);
  expectAnswer(sent.res, sent.context);
  if (sent.res.status >= 400) await expectUnchanged(h.db, before, sent.context);
  return sent;
}

/** A JSON body the contract refuses must be 422 validation_failed once the path names real things. */
function expectContractRefusal(sent: Sent, name: ComponentName, body: Body): void {
  if ('raw' in body || (validator.check(name, body.json).ok && !hasUnstorableText(body.json))) return;
  const { res, context } = sent;
  expect({ mutation: body.mutation, context, status: res.status, code: res.body?.error?.code }).toEqual({
    mutation: body.mutation,
    context,
    status: 422,
    code: 'validation_failed',
  });
}

const micros = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const instant = (text: unknown) => (text === null ? null : renderMicros(BigInt(text as string)));

it('When locations are created with fuzzed bodies, then each is stored as answered or refused whole', async () => {
  let created = 0;
  await fuzz(
    bodiesOf('LocationCreateRequest'),
    async (body) => {
      const sent = await send('post', `${B}/locations`, body);
      expectContractRefusal(sent, 'LocationCreateRequest', body);
      if (sent.res.status !== 201) return;
      created += 1;
      const rows: Json[] = await h.db.dataSource.query(
        'SELECT id, name, brand, currency, sandbox FROM locations WHERE id = $1',
        [sent.res.body.id],
      );
      expect({ context: sent.context, rows }).toEqual({ context: sent.context, rows: [sent.res.body] });
    },
    80,
  );
  expect(created).toBeGreaterThan(10);
}, 60_000);

it('When keys are issued and revoked with real and made-up ids, then each stored key matches its answer and a revoked key is refused', async () => {
  const locs = [await h.location({ plan: 'none' }), await h.location({ plan: 'none' })];
  const issued: { locationId: string; id: string; key: string }[] = [];
  const locationId = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...locs.map((l) => l.id)) }, junkIds);
  const op = fc.oneof(
    locationId.map((at) => ({ op: 'issue' as const, at })),
    fc
      .record({ at: locationId, pick: fc.nat(), junk: oneIn(3, junkIds) })
      .map((r) => ({ op: 'revoke' as const, ...r })),
  );

  await fuzz(
    op,
    async (step) => {
      if (step.op === 'issue') {
        const sent = await send('post', `${B}/locations/${step.at}/api-keys`);
        if (!locs.some((l) => l.id === step.at)) return expect(sent.res.status).toBe(404);
        expect({ context: sent.context, status: sent.res.status }).toEqual({
          context: sent.context,
          status: 201,
        });
        const { id, key, createdAt } = sent.res.body as { id: string; key: string; createdAt: string };
        const rows: Json[] = await h.db.dataSource.query(
          `SELECT location_id, key_hash, ${micros('created_at')} AS created, revoked_at FROM api_keys WHERE id = $1`,
          [id],
        );
        expect(rows.map((r) => ({ ...r, created: instant(r['created']) }))).toEqual([
          {
            location_id: step.at,
            key_hash: createHash('sha256').update(key).digest('hex'),
            created: createdAt,
            revoked_at: null,
          },
        ]);
        issued.push({ locationId: step.at, id, key });
        return;
      }
      const known = issued.length > 0 ? issued[step.pick % issued.length]! : undefined;
      const keyId = step.junk ?? known?.id ?? 'none';
      const sent = await send('delete', `${B}/locations/${step.at}/api-keys/${keyId}`);
      if (known && step.junk === null && known.locationId === step.at) {
        expect({ context: sent.context, status: sent.res.status }).toEqual({
          context: sent.context,
          status: 204,
        });
        const rows: Json[] = await h.db.dataSource.query('SELECT revoked_at FROM api_keys WHERE id = $1', [
          keyId,
        ]);
        expect(rows[0]!['revoked_at']).not.toBeNull();
        const refused = await h.client(known.key).get(`${P}/webhook-endpoint`);
        expect(refused.status).toBe(401);
      } else if (sent.res.status !== 204) {
        // Revoking twice is allowed to answer 204 again; anything unknown is 404.
        expect({ context: sent.context, code: sent.res.body.error.code }).toEqual({
          context: sent.context,
          code: 'not_found',
        });
      }
    },
    40,
  );
  expect(issued.length).toBeGreaterThan(3);
}, 60_000);

it('When working plans are read and published at real and made-up locations, then the answers follow the plan state and publishing stores the version it answers', async () => {
  const locs = {
    none: await h.location({ plan: 'none' }),
    draft: await h.location({ plan: 'draft' }),
    published: await h.location(),
  };
  const real = Object.values(locs).map((l) => l.id);
  await fuzz(
    fc.record({
      at: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, junkIds),
      op: fc.constantFrom('read', 'publish'),
      method: fc.constantFrom<Method>('get', 'post', 'post', 'get', 'put', 'delete'),
    }),
    async ({ at, op, method }) => {
      const path = `${B}/locations/${at}/floorplan/${op === 'read' ? 'working' : 'publish'}`;
      const sent = await send(method, path);
      const { res, context } = sent;
      const allowed = op === 'read' ? 'get' : 'post';
      // Another method is 405, unless the id is not even valid percent-encoding (404 first).
      if (method !== allowed) {
        return expect({ context, status: res.status }).toEqual({ context, status: decodes(at) ? 405 : 404 });
      }
      if (!real.includes(at))
        return expect({ context, status: res.status }).toEqual({ context, status: 404 });
      if (op === 'read') return expect({ context, status: res.status }).toEqual({ context, status: 200 });
      if (at === locs.none.id)
        return expect({ context, status: res.status }).toEqual({ context, status: 422 });
      expect({ context, status: res.status }).toEqual({ context, status: 200 });
      const rows: Json[] = await h.db.dataSource.query(
        `SELECT published_version AS version, ${micros('published_at')} AS at FROM floor_plans WHERE location_id = $1`,
        [at],
      );
      expect({
        context,
        stored: { version: rows[0]!['version'], publishedAt: instant(rows[0]!['at']) },
      }).toEqual({
        context,
        stored: res.body,
      });
    },
    30,
  );
}, 60_000);

it('When tables are edited with fuzzed patches and ids, then each stored table matches its answer or nothing changes', async () => {
  const loc = await h.location({ tables: 4 });
  const other = await h.location({ tables: 1 });
  const steer: Overrides = (path) => {
    const key = path.join('/');
    if (key === 'x' || key === 'y') return fc.double({ min: 0, max: 1000, noNaN: true });
    if (key === 'minCovers') return fc.integer({ min: 1, max: 4 });
    if (key === 'maxCovers') return fc.integer({ min: 4, max: 1000 });
    return undefined;
  };
  let edited = 0;
  await fuzz(
    fc.record({
      table: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...loc.tables) },
        fc.constant(other.tables[0]!),
        junkIds,
      ),
      at: fc.oneof({ weight: 8, arbitrary: fc.constant(loc.id) }, junkIds),
      body: bodiesOf('TablePatchRequest', steer),
    }),
    async ({ table, at, body }) => {
      const sent = await send('patch', `${B}/locations/${at}/tables/${table}`, body);
      const { res, context } = sent;
      const real = at === loc.id && loc.tables.includes(table);
      if (real) expectContractRefusal(sent, 'TablePatchRequest', body);
      if (res.status !== 200) return;
      expect({ context, real }).toEqual({ context, real: true });
      edited += 1;
      const rows: Json[] = await h.db.dataSource.query(
        `SELECT id, label, shape, seat_count AS "seatCount", min_covers AS "minCovers", max_covers AS "maxCovers",
                active, x, y, rotation, room_id AS "roomId", external_id AS "externalId"
           FROM dining_tables WHERE id = $1`,
        [table],
      );
      expect({ context, stored: rows[0] }).toEqual({ context, stored: res.body });
    },
    100,
  );
  expect(edited).toBeGreaterThan(6);
}, 60_000);

describe('Till orders', () => {
  type BodyOp = 'items' | 'move' | 'discounts' | 'payments' | 'service-status';
  type Step =
    | { op: 'open'; at: string | null; tables: string[] | null; body: Body | null }
    | { op: BodyOp; order: number; junkOrder: string | null; body: Body; tables: string[] }
    | { op: 'void-item'; order: number; junkOrder: string | null; item: number; junkItem: string | null }
    | { op: 'close' | 'void'; order: number; junkOrder: string | null }
    | { op: 'list'; query: string };
  const BODY_OF: Record<BodyOp, ComponentName> = {
    items: 'OrderItemRequest',
    move: 'OrderMoveRequest',
    discounts: 'OrderDiscountRequest',
    payments: 'OrderPaymentRequest',
    'service-status': 'OrderServiceStatusRequest',
  };

  /** The order as its row holds it, its check rendered from the stored lines (the totals are never stored). */
  async function storedOrder(id: string): Promise<Json | undefined> {
    const rows: Json[] = await h.db.dataSource.query(
      `SELECT id, table_ids AS "tableIds", covers, spend_minor AS "spendMinor", currency, status,
              reservation_external_id AS "reservationExternalId",
              ${micros('opened_at')} AS "openedAt", ${micros('closed_at')} AS "closedAt",
              items, discounts, payments, service_status AS "serviceStatus"
         FROM orders WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { items, discounts, payments, ...order } = row;
    const lines = {
      items,
      discounts,
      payments: (payments as Json[]).map((p) => ({ ...p, paidAt: Instant.parse(p['paidAt'] as string)! })),
    } as CheckLines;
    return {
      ...order,
      openedAt: instant(row['openedAt']),
      closedAt: instant(row['closedAt']),
      check: checkData(makeCheck(lines)),
    };
  }

  it('When walk-ins are opened, charged (items, voids, discounts, payments, status), moved, closed, voided and listed in random orders with fuzzed input, then each stored order matches its answer and a refusal changes nothing', async () => {
    const loc: TestLocation = await h.location({ rooms: 2, tables: 3 });
    const tables = fc.oneof(
      { weight: 4, arbitrary: fc.shuffledSubarray(loc.tables, { minLength: 1, maxLength: 3 }) },
      {
        weight: 1,
        arbitrary: fc.uniqueArray(fc.oneof(fc.uuid(), fc.constantFrom(...loc.tables)), {
          minLength: 1,
          maxLength: 3,
        }),
      },
    );
    const orderRef = { order: fc.nat(), junkOrder: oneIn(6, junkIds) };
    const step: fc.Arbitrary<Step> = fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .record({
            at: oneIn(8, junkIds),
            tables,
            covers: fc.integer({ min: 1, max: 8 }),
            body: oneIn(3, bodiesOf('OrderCreateRequest')),
          })
          .map(({ at, tables: t, covers, body }): Step => ({
            op: 'open',
            at,
            tables: t,
            body: body ?? { json: { tableIds: t, covers } },
          })),
      },
      {
        weight: 3,
        arbitrary: fc
          .record({ ...orderRef, body: bodiesOf('OrderItemRequest'), tables })
          .map((r): Step => ({ op: 'items', ...r })),
      },
      ...(['discounts', 'payments', 'service-status'] as const).map((op) => ({
        weight: 2,
        arbitrary: fc
          .record({ ...orderRef, body: bodiesOf(BODY_OF[op]), tables })
          .map((r): Step => ({ op, ...r })),
      })),
      {
        weight: 2,
        arbitrary: fc
          .record({ ...orderRef, item: fc.nat(), junkItem: oneIn(4, junkIds) })
          .map((r): Step => ({ op: 'void-item', ...r })),
      },
      {
        weight: 2,
        arbitrary: fc
          .record({ ...orderRef, tables, body: oneIn(3, bodiesOf('OrderMoveRequest')) })
          .map(({ body, tables: t, ...r }): Step => ({
            op: 'move',
            ...r,
            tables: t,
            body: body ?? { json: { tableIds: t } },
          })),
      },
      {
        weight: 2,
        arbitrary: fc
          .record({ ...orderRef, op: fc.constantFrom('close' as const, 'void' as const) })
          .map((r): Step => r),
      },
      {
        weight: 1,
        arbitrary: fc
          .oneof(
            fc.constantFrom(
              '',
              'status=open',
              'status=closed',
              'status=voided',
              'status=OPEN',
              'status=',
              'status=open&status=closed',
              'x=1',
              'status=%ZZ',
            ),
            fc.stringMatching(/^[a-z=&]{0,20}$/),
          )
          .map((query): Step => ({ op: 'list', query })),
      },
    );
    const seen = { accepted: 0, refused: 0 };

    await fuzz(
      fc.array(step, { minLength: 1, maxLength: 6 }),
      async (steps) => {
        for (const s of steps) {
          const orders: { id: string }[] = await h.db.dataSource.query(
            'SELECT id FROM orders WHERE location_id = $1 ORDER BY opened_at, id',
            [loc.id],
          );
          let sent: Sent;
          let orderId: string | null = null;
          if (s.op === 'open') {
            sent = await send('post', `${B}/locations/${s.at ?? loc.id}/orders`, s.body!);
            if (s.at === null) expectContractRefusal(sent, 'OrderCreateRequest', s.body!);
          } else if (s.op === 'list') {
            sent = await send('get', `${B}/locations/${loc.id}/orders?${s.query}`);
            if (sent.res.status === 200) {
              const listed = sent.res.body.orders as Json[];
              for (const o of listed) expect(await storedOrder(o['id'] as string)).toEqual(o);
            } else {
              expect({ context: sent.context, status: sent.res.status }).toEqual({
                context: sent.context,
                status: 422,
              });
            }
            continue;
          } else {
            orderId = s.junkOrder ?? orders[s.order % Math.max(orders.length, 1)]?.id ?? 'none';
            const path = `${B}/locations/${loc.id}/orders/${orderId}`;
            if (s.op === 'close' || s.op === 'void') sent = await send('post', `${path}/${s.op}`);
            else if (s.op === 'void-item') {
              const real = orders.some((o) => o.id === orderId);
              const items = real ? ((await storedOrder(orderId))!['check'] as { items: Json[] }).items : [];
              const itemId = s.junkItem ?? items[s.item % Math.max(items.length, 1)]?.['id'] ?? 'none';
              sent = await send('post', `${path}/items/${itemId}/void`);
            } else {
              const withBody = s as Extract<Step, { op: BodyOp }>;
              sent = await send('post', `${path}/${withBody.op}`, withBody.body);
              if (s.junkOrder === null && orders.length > 0)
                expectContractRefusal(sent, BODY_OF[withBody.op], withBody.body);
            }
          }
          if (sent.res.status >= 400) {
            seen.refused += 1;
            continue;
          }
          seen.accepted += 1;
          expect({ context: sent.context, stored: await storedOrder(sent.res.body.id) }).toEqual({
            context: sent.context,
            stored: sent.res.body,
          });
          if (orderId !== null) expect(sent.res.body.id).toBe(orderId);
        }
      },
      40,
    );
    expect(seen.accepted).toBeGreaterThan(6);
    expect(seen.refused).toBeGreaterThan(10);
  }, 90_000);
});
