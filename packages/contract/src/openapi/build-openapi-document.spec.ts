import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildOpenApiDocument } from './build-openapi-document';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;

/**
 * @seriousme/openapi-schema-validator is ESM-only, which Jest's CommonJS runtime cannot
 * import; it runs in a child Node process that reads the document from stdin.
 */
function thirdPartyValidation(document: unknown): { valid: boolean; errors?: unknown } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    const result = await new Validator().validate(JSON.parse(text));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(__dirname, '../..'),
    input: JSON.stringify(document),
  });
  return JSON.parse(out.toString('utf8'));
}

function* walk(node: unknown, path: string): Generator<{ node: Json; path: string }> {
  if (typeof node !== 'object' || node === null) return;
  yield { node: node as Json, path };
  for (const [key, value] of Object.entries(node)) yield* walk(value, `${path}/${key}`);
}

const allOperations = () =>
  Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({
      path,
      method,
      op: op as Json,
      id: op.operationId,
    })),
  );

describe('OpenAPI document', () => {
  it('When the document is checked by a third-party OpenAPI 3.1 validator, then it is valid', () => {
    expect(thirdPartyValidation(doc)).toEqual({ valid: true });
  });

  it('When a broken document is checked the same way, then the validator refuses it (the check can fail)', () => {
    const broken = { ...doc, paths: { '/x': { get: { responses: { 200: { content: 'nope' } } } } } };
    expect(thirdPartyValidation(broken).valid).toBe(false);
  });

  it('When the document is built, then it is OpenAPI 3.1 with interface version 1.0.0', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1.0.0');
  });

  it.each([
    ['post', '/api/provider/v1/reservations', '201'],
    ['get', '/api/provider/v1/reservations', '200'],
    ['put', '/api/provider/v1/reservations/{externalId}', '200'],
    ['get', '/api/provider/v1/floorplan', '200'],
    ['post', '/api/provider/v1/floorplan/import', '201'],
    ['get', '/api/provider/v1/webhook-endpoint', '200'],
    ['put', '/api/provider/v1/webhook-endpoint', '200'],
    ['delete', '/api/provider/v1/webhook-endpoint', '204'],
    ['post', '/api/provider/v1/webhook-endpoint/rotate-secret', '200'],
    ['get', '/api/provider/v1/webhook-deliveries', '200'],
    ['post', '/api/provider/v1/webhook-deliveries/{deliveryId}/redeliver', '202'],
    ['get', '/api/provider/v1/openapi.json', '200'],
    ['post', '/api/backoffice/v1/locations', '201'],
    ['post', '/api/backoffice/v1/locations/{locationId}/api-keys', '201'],
    ['delete', '/api/backoffice/v1/locations/{locationId}/api-keys/{keyId}', '204'],
    ['get', '/api/backoffice/v1/locations/{locationId}/floorplan/working', '200'],
    ['post', '/api/backoffice/v1/locations/{locationId}/floorplan/publish', '200'],
    ['patch', '/api/backoffice/v1/locations/{locationId}/tables/{tableId}', '200'],
    ['post', '/api/backoffice/v1/locations/{locationId}/orders', '201'],
    ['get', '/api/backoffice/v1/locations/{locationId}/orders', '200'],
    ['post', '/api/backoffice/v1/locations/{locationId}/orders/{orderId}/items', '200'],
    ['post', '/api/backoffice/v1/locations/{locationId}/orders/{orderId}/move', '200'],
    ['post', '/api/backoffice/v1/locations/{locationId}/orders/{orderId}/close', '200'],
    ['post', '/api/backoffice/v1/locations/{locationId}/orders/{orderId}/void', '200'],
  ])('When %s %s is looked up, then it is documented with success %s', (method, path, status) => {
    expect(doc.paths[path]?.[method]?.responses?.[status]).toBeDefined();
  });

  it('When every $ref is followed, then it resolves inside the document', () => {
    const refs = [...walk(doc, '')]
      .map(({ node }) => node.$ref)
      .filter((r): r is string => typeof r === 'string');
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<any>((node, token) => node?.[token], doc);
      expect({ ref, found: target !== undefined }).toEqual({ ref, found: true });
    }
  });

  it('When component schemas are compared with every nested schema, then none is copied inline', () => {
    const published = new Map(
      Object.entries(doc.components.schemas as Json).map(([name, s]) => [JSON.stringify(s), name]),
    );
    const copies = [...walk(doc, '')]
      .filter(({ path }) => !/^\/components\/schemas\/[^/]+$/.test(path))
      .filter(({ node }) => published.has(JSON.stringify(node)))
      .map(({ path, node }) => `${path} copies ${published.get(JSON.stringify(node))}`);
    expect(copies).toEqual([]);
  });

  it('When the document itself or a health probe is requested, then no credential is required; every other operation has one', () => {
    const open = ['getOpenApiDocument', 'getHealth', 'getReadiness'];
    for (const { id, path, op } of allOperations()) {
      const expected = open.includes(id)
        ? []
        : [{ [path.startsWith('/api/backoffice/') ? 'backofficeToken' : 'providerKey']: [] }];
      expect({ id, security: op.security }).toEqual({ id, security: expected });
    }
    expect(doc.components.securitySchemes).toMatchObject({
      providerKey: { type: 'http', scheme: 'bearer' },
      backofficeToken: { type: 'http', scheme: 'bearer' },
    });
  });

  it('When responses are listed, then errors use the envelope, 401 says WWW-Authenticate and 429 Retry-After', () => {
    for (const { id, path, op } of allOperations()) {
      const statuses = Object.keys(op.responses);
      if (op.security.length > 0)
        expect({ id, has401: statuses.includes('401') }).toEqual({ id, has401: true });
      if (path.startsWith('/api/provider/') && id !== 'getOpenApiDocument') {
        expect({ id, has429: statuses.includes('429') }).toEqual({ id, has429: true });
      }
      if (op.requestBody) {
        expect({ id, bodyErrors: ['400', '413', '415', '422'].every((s) => statuses.includes(s)) }).toEqual({
          id,
          bodyErrors: true,
        });
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        expect(response.headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/XRequestId' });
        if (Number(status) >= 400) {
          expect(response.content['application/json'].schema).toEqual({
            $ref: '#/components/schemas/ErrorEnvelope',
          });
        }
        if (status === '401') expect(response.headers['WWW-Authenticate']).toBeDefined();
        if (status === '429') expect(response.headers['Retry-After']).toBeDefined();
        const limited = path.startsWith('/api/provider/') && op.security.length > 0 && status !== '401';
        expect({ id, status, rateLimitHeaders: 'X-RateLimit-Remaining' in response.headers }).toEqual({
          id,
          status,
          rateLimitHeaders: limited,
        });
      }
    }
  });

  it('When a POST is described, then it takes an optional Idempotency-Key, may say Idempotent-Replayed and lists 409 idempotency_in_progress and 422 idempotency_key_reused; no other method does', () => {
    const posts = allOperations().filter(({ method }) => method === 'post');
    const key = { $ref: '#/components/parameters/IdempotencyKey' };
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    expect(posts.length).toBeGreaterThan(20);
    for (const { id, op } of posts) {
      expect({ id, key: op.parameters }).toEqual({ id, key: expect.arrayContaining([key]) });
      expect({ id, inProgress: op.responses['409'].description }).toEqual({
        id,
        inProgress: expect.stringContaining('idempotency_in_progress'),
      });
      expect({ id, reused: op.responses['422'].description }).toEqual({
        id,
        reused: expect.stringContaining('idempotency_key_reused'),
      });
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const replayable = !['401', '429', '500', '503', '400', '413', '415', '403'].includes(status);
        expect({ id, status, replayed: 'Idempotent-Replayed' in response.headers }).toEqual({
          id,
          status,
          replayed: replayable,
        });
      }
    }
    for (const { id, method, op } of allOperations().filter(({ method }) => method !== 'post')) {
      expect({ id, method, key: (op.parameters ?? []).some((p: Json) => p.$ref === key.$ref) }).toEqual({
        id,
        method,
        key: false,
      });
      expect({ id, replayed: JSON.stringify(op.responses).includes('Idempotent-Replayed') }).toEqual({
        id,
        replayed: false,
      });
    }
  });

  it('When the sandbox is described, then each simulator operation takes a provider key, answers 403 sandbox_only and has no locationId', () => {
    const simulator = allOperations().filter(({ path }) => path.startsWith('/api/provider/v1/sandbox/'));
    expect(simulator.map(({ id }) => id).sort()).toEqual(
      [
        'sandboxAddOrderItem',
        'sandboxVoidOrderItem',
        'sandboxAddOrderDiscount',
        'sandboxAddOrderPayment',
        'sandboxSetOrderServiceStatus',
        'sandboxCloseOrder',
        'sandboxListOrders',
        'sandboxMoveOrder',
        'sandboxOpenWalkInOrder',
        'sandboxPublishFloorPlan',
        'sandboxVoidOrder',
      ].sort(),
    );
    for (const { id, path, op } of simulator) {
      expect({ id, tags: op.tags, has403: '403' in op.responses, path }).toEqual({
        id,
        tags: ['sandbox'],
        has403: true,
        path: expect.not.stringContaining('locationId'),
      });
    }
  });

  it('When the window listing is described, then from and to are required query parameters and limit is 1-500', () => {
    const params = doc.paths['/api/provider/v1/reservations'].get.parameters as Json[];
    expect(params.slice(0, 4).map((p) => [p.name, p.in, p.required])).toEqual([
      ['from', 'query', true],
      ['to', 'query', true],
      ['limit', 'query', false],
      ['cursor', 'query', false],
    ]);
    expect(params[4]).toEqual({ $ref: '#/components/parameters/LocationId' });
    expect(params[2]!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
  });

  it.each([
    ['floorplan.published', 'FloorplanPublishedEvent'],
    ['table.occupied', 'TableOccupiedEvent'],
    ['table.freed', 'TableFreedEvent'],
    ['table.spend_updated', 'TableSpendUpdatedEvent'],
  ])(
    'When the %s webhook is described, then it carries the Standard Webhooks headers and its body schema',
    (type, schema) => {
      const post = doc.webhooks[type].post;
      expect(post.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(post.requestBody.content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${schema}`,
      });
      expect(doc.components.schemas[schema].properties.data.required).toContain('locationEventSequence');
    },
  );

  it('When the reservation request is published, then it is closed and posOrderId is its one extra field', () => {
    const request = doc.components.schemas.ReservationRequest;
    expect(request.additionalProperties).toBe(false);
    expect(request.properties.posOrderId).toEqual({
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 128,
      default: null,
    });
    expect(request.properties.guest).toEqual({ $ref: '#/components/schemas/GuestRequest' });
  });
});
