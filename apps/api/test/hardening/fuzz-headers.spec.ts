import fc from 'fast-check';
import { operations, type OperationSpec } from '@pis/contract';
import type { Response } from 'supertest';
import { operationWorld, requestOf, simulated, type OperationWorld } from '../support/every-operation';
import { Harness, type TestLocation } from '../support/harness';
import { BACKOFFICE_TOKEN } from '../support/test-api';
import { expectAnswer, expectUnchanged, fuzz, snapshot } from './support/fuzz-invariants';
import {
  ACCEPTS,
  CONTENT_TYPES,
  REQUEST_IDS,
  brokenAuthorizations,
  validAuthorizations,
} from './support/fuzz-transport';

/**
 * Every operation of the contract under fuzzed headers (docs/reference/errors.md#check-order):
 * Authorization (valid spellings, broken ones, a revoked key, another location's key, the
 * other surface's credential), Content-Type, Accept and X-Request-Id, each request otherwise
 * well formed and naming real things. Authentication answers first: a credential that is not
 * accepted is 401 with `WWW-Authenticate: Bearer` whatever else was sent, and changes nothing.
 */
let h: Harness;
let world: OperationWorld;
let loc: TestLocation;
let other: TestLocation;
let revokedKey: string;

beforeAll(async () => {
  h = await Harness.start();
  world = await operationWorld(h, 'hdr-1');
  loc = world.loc;
  other = await h.location({ plan: 'none' });
  const revoked = await h.operator.post(loc.ops('/api-keys')).expect(201);
  await h.operator.delete(loc.ops(`/api-keys/${revoked.body.id}`)).expect(204);
  revokedKey = revoked.body.key;
});
afterAll(async () => {
  await h?.stop();
});

type Credential = { kind: 'valid' | 'broken' | 'other-location'; header: string | null };

function credentialsFor(op: OperationSpec): fc.Arbitrary<Credential> {
  const own =
    op.security === 'backofficeToken' ? BACKOFFICE_TOKEN : simulated(op) ? world.sandbox.key : loc.key;
  const wrongSurface = op.security === 'backofficeToken' ? loc.key : BACKOFFICE_TOKEN;
  const broken = fc.oneof(
    brokenAuthorizations(own),
    fc.constantFrom(`Bearer ${revokedKey}`, `Bearer ${wrongSurface}`),
  );
  return fc.oneof(
    {
      weight: 3,
      arbitrary: validAuthorizations(own).map((header): Credential => ({ kind: 'valid', header })),
    },
    { weight: 3, arbitrary: broken.map((header): Credential => ({ kind: 'broken', header })) },
    ...(op.security === 'providerKey'
      ? [
          {
            weight: 1,
            arbitrary: fc.constant<Credential>({ kind: 'other-location', header: `Bearer ${other.key}` }),
          },
        ]
      : []),
  );
}

/** Content-Types that are not JSON by any reading: a body sent with one is 415 once authenticated. */
const NOT_JSON = new Set([
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
]);

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function expectRequestId(res: Response, sent: string | null, context: string): void {
  const id = res.headers['x-request-id'] as string;
  const kept = sent !== null && SAFE_ID.test(sent);
  expect({ context, sent, id: kept ? id : SAFE_ID.test(id) && id !== sent }).toEqual({
    context,
    sent,
    id: kept ? sent : true,
  });
}

describe.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
  '%s',
  (_name, op) => {
    it('When it is called with fuzzed Authorization, Content-Type, Accept and X-Request-Id, then authentication answers first and nothing else leaks', async () => {
      const cases = fc.record({
        credential:
          op.security === 'none'
            ? fc.constant<Credential>({ kind: 'valid', header: null })
            : credentialsFor(op),
        contentType: fc.oneof(
          { weight: 2, arbitrary: fc.constant<string | null>('application/json') },
          CONTENT_TYPES,
        ),
        accept: ACCEPTS,
        requestId: REQUEST_IDS,
        head: fc.constantFrom(false, false, false, op.method === 'get'),
      });

      await fuzz(
        cases,
        async ({ credential, contentType, accept, requestId, head }) => {
          const { path, body } = requestOf(world, op);
          let test = h.anonymous[head ? 'head' : op.method](path);
          if (credential.header !== null) test = test.set('Authorization', credential.header);
          if (accept !== null) test = test.set('Accept', accept);
          if (requestId !== null) test = test.set('X-Request-Id', requestId);
          if (body !== undefined) {
            test = test
              .serialize((b: unknown) => b as string)
              .send(JSON.stringify(body) as unknown as string)
              .unset('Content-Type');
            if (contentType !== null) test = test.set('Content-Type', contentType);
          }
          const context = `${head ? 'HEAD' : op.method.toUpperCase()} ${path} ${JSON.stringify({ credential, contentType, accept, requestId })}`;
          const before = await snapshot(h.db);
          const res = await test;

          expectRequestId(res, requestId, context);
          if (head) {
            expect({ context, status: res.status < 500 }).toEqual({ context, status: true });
            return;
          }
          expectAnswer(res, context);
          if (res.status !== 204) expect(res.headers['content-type']).toMatch(/^application\/json/);
          if (res.status >= 400) await expectUnchanged(h.db, before, context);
          if (credential.kind === 'broken') {
            expect({
              context,
              status: res.status,
              code: res.body.error?.code,
              challenge: res.headers['www-authenticate'],
            }).toEqual({
              context,
              status: 401,
              code: 'unauthorized',
              challenge: 'Bearer',
            });
            return;
          }
          expect({ context, unauthorized: res.status === 401 }).toEqual({ context, unauthorized: false });
          if (simulated(op) && credential.kind === 'other-location') {
            // Another location's key is a live key: the simulator refuses it before reading the body.
            expect({ context, status: res.status, code: res.body.error?.code }).toEqual({
              context,
              status: 403,
              code: 'sandbox_only',
            });
            return;
          }
          if (body !== undefined && contentType !== null && NOT_JSON.has(contentType)) {
            expect({ context, status: res.status }).toEqual({ context, status: 415 });
          }
        },
        8,
      );
    });
  },
);
