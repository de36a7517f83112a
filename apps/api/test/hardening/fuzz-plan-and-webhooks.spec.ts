import fc from 'fast-check';
import { componentSchemas, createValidator, MAX_INT32 } from '@pis/contract';
import { Harness, type TestLocation } from '../support/harness';
import { P, type Json } from '../support/wire';
import {
  epochMicros,
  expectAnswer,
  expectUnchanged,
  fuzz,
  renderMicros,
  snapshot,
} from './support/fuzz-invariants';
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
import { asSchema, textOf, validOf, type Overrides } from './support/fuzz-schema';
import { rawBodyOf } from './support/fuzz-transport';

/**
 * The provider's floor plan and webhook endpoints under fuzzing: import bodies made from
 * the schema and broken, the published plan, the webhook endpoint's PUT/GET/DELETE/rotate
 * in random sequences, the delivery list's query, redelivery of real and made-up ids, and
 * the OpenAPI document. The URL policy is on (no private hosts, https only), as in
 * production, so registrations are refused as well as accepted.
 */
const IMPORT = asSchema(componentSchemas.FloorPlanImportRequest);
const ENDPOINT = asSchema(componentSchemas.WebhookEndpointRequest);
const validator = createValidator();

let h: Harness;
beforeAll(async () => {
  h = await Harness.start({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_ALLOW_INSECURE_URLS: 'false' });
});
afterAll(async () => {
  await h?.stop();
});

/** A request whose refusal must leave every table as it was; a 2xx is checked by the caller. */
async function checked(send: () => Promise<Sent>): Promise<Sent> {
  const before = await snapshot(h.db);
  const sent = await send();
  expectAnswer(sent.res, sent.context);
  if (sent.res.status >= 400) await expectUnchanged(h.db, before, sent.context);
  return sent;
}

function expectRefusedAs(sent: Sent, status: number, code: string, why = ''): void {
  const { res, context } = sent;
  expect({ why, context, status: res.status, code: res.body?.error?.code }).toEqual({
    why,
    context,
    status,
    code,
  });
}

describe('POST /floorplan/import', () => {
  /** Centres inside the default canvas (1000) and canvases at least that large; covers in order. */
  const steer: Overrides = (path) => {
    const key = path.filter((p) => p !== '*').join('/');
    if (key === 'rooms') return undefined;
    if (key === 'rooms/tables/x' || key === 'rooms/tables/y')
      return fc.double({ min: 0, max: 1000, noNaN: true });
    if (key === 'rooms/canvasWidth' || key === 'rooms/canvasHeight')
      return fc.double({ min: 1000, max: 100_000, noNaN: true });
    if (key === 'rooms/tables/minCovers') return fc.integer({ min: 1, max: 4 });
    if (key === 'rooms/tables/maxCovers') return fc.integer({ min: 4, max: MAX_INT32 });
    return undefined;
  };
  const validImport = fc.oneof(
    { weight: 4, arbitrary: validOf(IMPORT, steer) },
    { weight: 1, arbitrary: validOf(IMPORT) },
  );

  /** The rooms and tables stored for `loc` are the ones the import result names. */
  async function expectStoredImport(loc: TestLocation, sent: Sent): Promise<void> {
    const rooms: Json[] = await h.db.dataSource.query(
      'SELECT id AS "roomId", external_id AS "externalRoomId", name FROM rooms WHERE location_id = $1',
      [loc.id],
    );
    const tables: Json[] = await h.db.dataSource.query(
      'SELECT id AS "tableId", external_id AS "externalTableId", label FROM dining_tables WHERE location_id = $1',
      [loc.id],
    );
    const byId = (key: string) => (a: Json, b: Json) => String(a[key]).localeCompare(String(b[key]));
    expect({
      context: sent.context,
      rooms: rooms.sort(byId('roomId')),
      tables: tables.sort(byId('tableId')),
    }).toEqual({
      context: sent.context,
      rooms: [...(sent.res.body.rooms as Json[])].sort(byId('roomId')),
      tables: [...(sent.res.body.mapping as Json[])].sort(byId('tableId')),
    });
  }

  it('When valid-by-construction plans are imported into a draft, then each is stored as its result says or refused whole', async () => {
    const loc = await h.location({ plan: 'none' });
    let imported = 0;
    await fuzz(
      validImport,
      async (body) => {
        const sent = await checked(() => sendJson(loc.api, 'post', `${P}/floorplan/import`, body));
        if (sent.res.status === 201) {
          imported += 1;
          await expectStoredImport(loc, sent);
        }
      },
      50,
    );
    expect(imported).toBeGreaterThan(3);
  }, 60_000);

  it('When import bodies are mutated, then every one the contract refuses is 422 validation_failed and nothing is stored', async () => {
    const loc = await h.location({ plan: 'none' });
    await fuzz(
      mutantOf(IMPORT, validOf(IMPORT, steer)),
      async ({ body, mutation }) => {
        const sent = await checked(() => sendJson(loc.api, 'post', `${P}/floorplan/import`, body));
        if (sent.res.status === 201) await expectStoredImport(loc, sent);
        if (!validator.check('FloorPlanImportRequest', body).ok || hasUnstorableText(body)) {
          expectRefusedAs(sent, 422, 'validation_failed', mutation);
        }
      },
      80,
    );
  }, 60_000);

  it('When anything is imported after the first publish, then it is refused and the published plan stays', async () => {
    const loc = await h.location();
    let closed = 0;
    await fuzz(
      fc.oneof(
        validImport,
        rawBodyOf(validImport).map((raw) => ({ raw })),
      ),
      async (body) => {
        const raw = (body as { raw?: Parameters<typeof sendRaw>[3] }).raw;
        const path = `${P}/floorplan/import`;
        const sent = await checked(() =>
          raw ? sendRaw(loc.api, 'post', path, raw) : sendJson(loc.api, 'post', path, body),
        );
        expect({ context: sent.context, status: sent.res.status >= 400 }).toEqual({
          context: sent.context,
          status: true,
        });
        // A body the contract accepts meets the closed import (409), unless the domain's own
        // body checks (duplicate ids, covers, centres outside the canvas) refuse it first.
        if (!raw && validator.check('FloorPlanImportRequest', body).ok && !hasUnstorableText(body)) {
          const { res, context } = sent;
          const answer = `${res.status} ${res.body.error.code}`;
          expect({ context, answer }).toEqual({
            context,
            answer: answer === '422 validation_failed' ? answer : '409 draft_not_empty',
          });
          if (res.status === 409) closed += 1;
        }
      },
      40,
    );
    expect(closed).toBeGreaterThan(3);
  }, 60_000);

  it('When the published plan is read with odd queries, then it is 200 once published and 404 floorplan_not_published before', async () => {
    const published = await h.location();
    const none = await h.location({ plan: 'none' });
    const query = fc.oneof(
      fc.constant(''),
      fc.stringMatching(/^[A-Za-z0-9=&%._~-]{0,30}$/),
      fc.constantFrom('version=1', '%ZZ', 'a=%ED%A0%80', 'x'.repeat(2000)),
    );
    await fuzz(
      fc.record({ query, which: fc.boolean() }),
      async ({ query: q, which }) => {
        const loc = which ? published : none;
        const sent = await checked(() => sendJson(loc.api, 'get', `${P}/floorplan?${q}`));
        if (which)
          expect({ context: sent.context, status: sent.res.status }).toEqual({
            context: sent.context,
            status: 200,
          });
        else expectRefusedAs(sent, 404, 'floorplan_not_published');
      },
      30,
    );
  }, 60_000);
});

describe('Webhook endpoint and deliveries', () => {
  /**
   * URLs the policy lets through (public address, https) and ones
   * docs/reference/webhooks.md#receiver-urls refuses.
   */
  const ACCEPTED = [
    'https://hooks.example.test/hook',
    'https://hooks.example.test:8443/a/b?c=d&e=%20#frag',
    'https://HOOKS.EXAMPLE.TEST/x',
    `https://hooks.example.test/${'x'.repeat(2000)}`,
    'https://93.184.215.14/',
  ];
  const REFUSED = [
    'http://hooks.example.test/insecure',
    'https://intranet.example.test/',
    'https://metadata.example.test/latest',
    'https://localhost/',
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://10.0.0.1/',
    'https://169.254.169.254/',
    'https://0x7f.0.0.1/',
    'https://2130706433/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:10.1.2.3]/',
    'ftp://hooks.example.test/',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'not a url',
  ];
  /** Odd ones the fuzzer only asks to be answered without a 5xx. */
  const ODD = [
    'https://hooks.example.test./x',
    'https://user:secret@hooks.example.test/x',
    'https://0.0.0.0/',
    'https://unknown.example.test/',
    'https://',
    'https:///path',
    'https://hooks.example.test:99999/',
    'https://hooks.example.test:0/',
    'https://exa mple.test/',
  ];
  const url = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ACCEPTED) },
    { weight: 2, arbitrary: fc.constantFrom(...REFUSED) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD) },
    { weight: 1, arbitrary: fc.webUrl() },
    { weight: 1, arbitrary: textOf(1, 60) },
  );
  const steer: Overrides = (path) => (path.join('/') === 'url' ? url : undefined);

  interface Stored {
    url: string;
    events: string[];
    createdAt: string;
    updatedAt: string;
  }

  async function storedEndpoint(loc: TestLocation): Promise<Stored | null> {
    const rows: Json[] = await h.db.dataSource.query(
      `SELECT url, events,
              (extract(epoch FROM created_at) * 1000000)::bigint::text AS created,
              (extract(epoch FROM updated_at) * 1000000)::bigint::text AS updated
         FROM webhook_endpoints WHERE location_id = $1`,
      [loc.id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      url: row['url'] as string,
      events: [...(row['events'] as string[])].sort(),
      createdAt: renderMicros(BigInt(row['created'] as string)),
      updatedAt: renderMicros(BigInt(row['updated'] as string)),
    };
  }

  type Op =
    | { op: 'put'; body: unknown; mutation?: string }
    | { op: 'raw-put'; raw: Parameters<typeof sendRaw>[3] }
    | { op: 'get' | 'delete' | 'rotate' };

  const ops: fc.Arbitrary<Op> = fc.oneof(
    { weight: 4, arbitrary: validOf(ENDPOINT, steer).map((body): Op => ({ op: 'put', body })) },
    {
      weight: 2,
      arbitrary: mutantOf(ENDPOINT, validOf(ENDPOINT, steer)).map(({ body, mutation }): Op => ({
        op: 'put',
        body,
        mutation,
      })),
    },
    { weight: 1, arbitrary: rawBodyOf(validOf(ENDPOINT, steer)).map((raw): Op => ({ op: 'raw-put', raw })) },
    { weight: 4, arbitrary: fc.constantFrom<Op>({ op: 'get' }, { op: 'delete' }, { op: 'rotate' }) },
  );

  it('When PUT, GET, DELETE and rotate-secret run in random orders with fuzzed bodies, then each answers as the stored endpoint says and a refusal changes nothing', async () => {
    const loc = await h.location({ plan: 'none' });
    const path = `${P}/webhook-endpoint`;
    const seen = { registered: 0, refused: 0 };
    await fuzz(
      fc.array(ops, { minLength: 1, maxLength: 8 }),
      async (sequence) => {
        for (const step of sequence) {
          const before = await storedEndpoint(loc);
          const sent = await checked(() => {
            switch (step.op) {
              case 'put':
                return sendJson(loc.api, 'put', path, step.body);
              case 'raw-put':
                return sendRaw(loc.api, 'put', path, step.raw);
              case 'get':
                return sendJson(loc.api, 'get', path);
              case 'delete':
                return sendJson(loc.api, 'delete', path);
              case 'rotate':
                return sendJson(loc.api, 'post', `${path}/rotate-secret`);
            }
          });
          const { res, context } = sent;
          if (step.op === 'put') {
            const valid =
              validator.check('WebhookEndpointRequest', step.body).ok && !hasUnstorableText(step.body);
            const to = valid ? (step.body as { url: string }).url : '';
            if (!valid || REFUSED.includes(to))
              expectRefusedAs(sent, 422, 'validation_failed', step.mutation);
            if (valid && ACCEPTED.includes(to))
              expect({ context, status: res.status }).toEqual({ context, status: 200 });
          }
          if (step.op === 'get' || step.op === 'delete' || step.op === 'rotate') {
            // Whether it exists decides the answer: these take no body to refuse.
            if (before === null) expectRefusedAs(sent, 404, 'not_found');
            else
              expect({ context, status: res.status }).toEqual({
                context,
                status: step.op === 'delete' ? 204 : 200,
              });
          }
          if (res.status >= 400) {
            seen.refused += 1;
            continue;
          }
          const after = await storedEndpoint(loc);
          if (step.op === 'delete') {
            expect({ context, after }).toEqual({ context, after: null });
            continue;
          }
          if (step.op === 'put' || step.op === 'raw-put') seen.registered += 1;
          const body = res.body as Json;
          expect({ context, after }).toEqual({
            context,
            after: {
              url: body['url'],
              events: [...(body['events'] as string[])].sort(),
              createdAt: body['createdAt'],
              updatedAt: body['updatedAt'],
            },
          });
          // What was answered is what is read back, secret included.
          const read = await loc.api.get(path).expect(200);
          expect({ context, read: read.body }).toEqual({ context, read: body });
        }
      },
      30,
    );
    expect(seen.registered).toBeGreaterThan(3);
    expect(seen.refused).toBeGreaterThan(10);
  }, 90_000);

  const CREATE = asSchema(componentSchemas.WebhookEndpointCreateRequest);
  const PATCH = asSchema(componentSchemas.WebhookEndpointPatchRequest);
  type ByIdOp =
    | { op: 'create'; body: unknown; mutation?: string }
    | { op: 'patch'; body: unknown; mutation?: string }
    | { op: 'delete' | 'rotate' | 'get' };
  /**
   * A valid body as a location scope takes it: the connection events are for provider-scope
   * endpoints (a location scope naming one is refused, which the mutants and the bad-body check
   * cover), so the valid bodies leave them out and most creations succeed.
   */
  const atLocationScope = (body: unknown): unknown => {
    const types = (body as { eventTypes?: unknown } | null)?.eventTypes;
    if (!Array.isArray(types)) return body;
    const kept = types.filter((t) => !(typeof t === 'string' && t.startsWith('connection.')));
    const { eventTypes: _dropped, ...rest } = body as Json;
    return kept.length > 0 ? { ...rest, eventTypes: kept } : rest;
  };
  const byIdOps: fc.Arbitrary<ByIdOp> = fc.oneof(
    {
      weight: 3,
      arbitrary: validOf(CREATE, steer).map((body): ByIdOp => ({
        op: 'create',
        body: atLocationScope(body),
      })),
    },
    {
      weight: 2,
      arbitrary: mutantOf(CREATE, validOf(CREATE, steer)).map(({ body, mutation }): ByIdOp => ({
        op: 'create',
        body,
        mutation,
      })),
    },
    {
      weight: 3,
      arbitrary: validOf(PATCH, steer).map((body): ByIdOp => ({ op: 'patch', body: atLocationScope(body) })),
    },
    {
      weight: 2,
      arbitrary: mutantOf(PATCH, validOf(PATCH, steer)).map(({ body, mutation }): ByIdOp => ({
        op: 'patch',
        body,
        mutation,
      })),
    },
    { weight: 2, arbitrary: fc.constantFrom<ByIdOp>({ op: 'get' }, { op: 'delete' }, { op: 'rotate' }) },
  );

  it('When endpoints by id are created, changed, read, rotated and deleted in random orders with fuzzed bodies, then each answer is as the contract says, a refusal changes nothing and a location never holds more than ten', async () => {
    const loc = await h.location({ plan: 'none' });
    const base = `${P}/webhook-endpoints`;
    const seen = { created: 0, patched: 0, refused: 0 };
    await fuzz(
      fc.array(byIdOps, { minLength: 1, maxLength: 8 }),
      async (sequence) => {
        for (const step of sequence) {
          const list = await loc.api.get(base).expect(200);
          const ids = (list.body.endpoints as Json[]).map((e) => e['id'] as string);
          const target = ids[0] ?? '00000000-0000-4000-8000-000000000000';
          const sent = await checked(() => {
            switch (step.op) {
              case 'create':
                return sendJson(loc.api, 'post', base, step.body);
              case 'patch':
                return sendJson(loc.api, 'patch', `${base}/${target}`, step.body);
              case 'get':
                return sendJson(loc.api, 'get', `${base}/${target}`);
              case 'delete':
                return sendJson(loc.api, 'delete', `${base}/${target}`);
              case 'rotate':
                return sendJson(loc.api, 'post', `${base}/${target}/rotate-secret`);
            }
          });
          const { res, context } = sent;
          if (step.op === 'create' || step.op === 'patch') {
            const schema =
              step.op === 'create' ? 'WebhookEndpointCreateRequest' : 'WebhookEndpointPatchRequest';
            // The connection events are for provider-scope endpoints: a location scope naming one is a bad body.
            const types = (step.body as { eventTypes?: unknown } | null)?.eventTypes;
            const namesConnection =
              Array.isArray(types) && types.some((t) => typeof t === 'string' && t.startsWith('connection.'));
            const valid =
              validator.check(schema, step.body).ok && !hasUnstorableText(step.body) && !namesConnection;
            const to = (step.body as { url?: unknown } | null)?.url;
            if (!valid || (typeof to === 'string' && REFUSED.includes(to)))
              expectRefusedAs(sent, 422, 'validation_failed', step.mutation);
            else if (to === undefined || (typeof to === 'string' && ACCEPTED.includes(to))) {
              // A URL the policy takes (or none): the scope decides. Others (made up) may be refused by the policy first.
              if (step.op === 'create' && ids.length >= 10) expectRefusedAs(sent, 409, 'endpoint_limit');
              if (step.op === 'patch' && ids.length === 0) expectRefusedAs(sent, 404, 'not_found');
            }
          } else if (ids.length === 0) expectRefusedAs(sent, 404, 'not_found');
          if (res.status >= 400) {
            seen.refused += 1;
            continue;
          }
          if (step.op === 'create') {
            seen.created += 1;
            expect({ context, status: res.status, scope: res.body.scope }).toEqual({
              context,
              status: 201,
              scope: 'location',
            });
          }
          if (step.op === 'patch') seen.patched += 1;
          if (step.op === 'delete') {
            await loc.api.get(`${base}/${target}`).expect(404);
            continue;
          }
          // What was answered is what is read back (the secret shown by create and rotate only).
          const id = res.body.id as string;
          const read = await loc.api.get(`${base}/${id}`).expect(200);
          const { secret: _secret, ...answered } = res.body as Json;
          const { secret: _read, ...stored } = read.body as Json;
          expect({ context, stored }).toEqual({ context, stored: answered });
        }
        const after = await loc.api.get(base).expect(200);
        expect((after.body.endpoints as Json[]).length).toBeLessThanOrEqual(10);
      },
      30,
    );
    expect(seen.created).toBeGreaterThan(3);
    expect(seen.refused).toBeGreaterThan(5);
  }, 120_000);

  /** A location with a registered endpoint, a published plan and walk-ins, its events relayed to deliveries. */
  async function withDeliveries(): Promise<{ loc: TestLocation; ids: string[]; cursor: string }> {
    const loc = await h.location({ plan: 'draft', tables: 4 });
    await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/hook' }).expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
    await h.walkIn(loc, [loc.tables[0]!]);
    await h.walkIn(loc, [loc.tables[1]!, loc.tables[2]!]);
    await h.relayOutbox();
    const list = await loc.api.get(`${P}/webhook-deliveries?limit=1`).expect(200);
    const all = await loc.api.get(`${P}/webhook-deliveries`).expect(200);
    const ids = (all.body.deliveries as Json[]).map((d) => d['id'] as string);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    return { loc, ids, cursor: list.body.nextCursor };
  }

  it('When the delivery list is asked with any query, then it is 200 newest first within the limit or 422 validation_failed, and nothing changes', async () => {
    const { loc, cursor } = await withDeliveries();
    const forged = (k: string, t: string, i: string) =>
      Buffer.from(JSON.stringify({ k, t, i })).toString('base64url');
    const value = (name: string) =>
      ({
        status: fc.oneof(
          fc.constantFrom('pending', 'succeeded', 'failed'),
          fc.constantFrom('PENDING', '', 'open', 'pending,failed'),
        ),
        limit: fc.oneof(
          fc.integer({ min: -2, max: 600 }).map(String),
          fc.constantFrom('1.5', 'x', '', '1e1', '007'),
        ),
        cursor: fc.oneof(
          fc.constant(cursor),
          fc.constantFrom(
            forged('d', '0', 'not-a-uuid'),
            forged('d', '1795000000000000', "x' OR 1=1 --"),
            forged('d', '1795000000000000', 'a\u0000b'),
            forged('r', '0', '00000000-0000-0000-0000-000000000000'),
            forged('d', '99999999999999999999', 'x'),
            cursor.slice(0, -3),
            '!!!',
          ),
          fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/),
        ),
        extra: fc.constant('1'),
      })[name]!;
    const query = fc
      .array(
        fc
          .constantFrom('status', 'limit', 'cursor', 'extra')
          .chain((name) => value(name).map((v) => [name, v] as const)),
        { maxLength: 4 },
      )
      .chain((pairs) =>
        oneIn(8, fc.constantFrom('status=%ZZ', 'limit=%ED%A0%80', '%FF=1')).map((raw) => ({ pairs, raw })),
      );

    let listed = 0;
    await fuzz(
      query,
      async ({ pairs, raw }) => {
        const text = [...pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`), ...(raw ? [raw] : [])].join(
          '&',
        );
        const sent = await checked(() => sendJson(loc.api, 'get', `${P}/webhook-deliveries?${text}`));
        const { res, context } = sent;
        if (res.status !== 200) return expectRefusedAs(sent, 422, 'validation_failed');
        listed += 1;
        const limits = pairs.filter(([k]) => k === 'limit');
        const deliveries = res.body.deliveries as Json[];
        expect(deliveries.length).toBeLessThanOrEqual(limits.length === 1 ? Number(limits[0]![1]) : 100);
        const status = pairs.find(([k]) => k === 'status')?.[1];
        if (status)
          expect({ context, statuses: [...new Set(deliveries.map((d) => d['status']))] }).toEqual({
            context,
            statuses: deliveries.length ? [status] : [],
          });
        const created = deliveries.map((d) => epochMicros(d['createdAt'] as string));
        expect({ context, newestFirst: created.every((c, i) => i === 0 || c <= created[i - 1]!) }).toEqual({
          context,
          newestFirst: true,
        });
      },
      60,
    );
    expect(listed).toBeGreaterThan(2);
  }, 60_000);

  it('When deliveries are redelivered by real and made-up ids, with or without a body, then a real one is queued again and anything else is 404 with nothing changed', async () => {
    const { loc, ids } = await withDeliveries();
    const other = await h.location({ plan: 'none' });
    await fuzz(
      fc.record({
        id: fc.oneof(fc.constantFrom(...ids), junkIds),
        who: fc.constantFrom('owner', 'owner', 'other'),
        method: fc.constantFrom<Method>('post', 'post', 'get', 'put', 'delete', 'patch'),
        body: oneIn(3, fc.oneof(fc.constant({}), fc.constant('junk'), fc.object({ maxDepth: 2 }))),
      }),
      async ({ id, who, method, body }) => {
        const client = who === 'owner' ? loc.api : other.api;
        const sent = await checked(() =>
          sendJson(client, method, `${P}/webhook-deliveries/${id}/redeliver`, body ?? undefined),
        );
        const { res, context } = sent;
        if (method !== 'post') {
          // Another method is 405, unless the id is not even valid percent-encoding (404 first).
          return expectRefusedAs(sent, decodes(id) ? 405 : 404, 'not_found');
        }
        if (who === 'owner' && ids.includes(id)) {
          expect({ context, status: res.status, body: res.body }).toEqual({
            context,
            status: 202,
            body: { deliveryId: id },
          });
          const rows: Json[] = await h.db.dataSource.query(
            'SELECT status FROM webhook_deliveries WHERE id = $1',
            [id],
          );
          expect({ context, rows }).toEqual({ context, rows: [{ status: 'pending' }] });
        } else {
          expectRefusedAs(sent, 404, 'not_found');
        }
      },
      40,
    );
  }, 60_000);
});

it('When the OpenAPI document is asked for with any query, credential or method, then GET is 200 with the document and other methods are 405', async () => {
  const loc = await h.location({ plan: 'none' });
  const doc = await h.anonymous.get(`${P}/openapi.json`).expect(200);
  await fuzz(
    fc.record({
      method: fc.constantFrom<Method>('get', 'get', 'post', 'put', 'delete', 'patch'),
      who: fc.constantFrom('anonymous', 'provider', 'garbage'),
      query: fc.oneof(
        fc.constant(''),
        fc.constantFrom('?a=1', '?%ZZ', '?format=yaml', `?${'x'.repeat(3000)}`),
      ),
    }),
    async ({ method, who, query }) => {
      const client =
        who === 'anonymous' ? h.anonymous : who === 'provider' ? loc.api : h.client('garbage token');
      const sent = await checked(() => sendJson(client, method, `${P}/openapi.json${query}`));
      if (method !== 'get') return expectRefusedAs(sent, 405, 'not_found');
      expect({
        context: sent.context,
        status: sent.res.status,
        same: JSON.stringify(sent.res.body) === JSON.stringify(doc.body),
      }).toEqual({
        context: sent.context,
        status: 200,
        same: true,
      });
    },
    20,
  );
});
