import { gzipSync } from 'node:zlib';
import { expectEnvelope } from '../support/envelope';
import { Harness, type TestLocation } from '../support/harness';
import { B, P, reservation } from '../support/wire';
import { expectUnchanged, snapshot } from './support/fuzz-invariants';

/**
 * Inputs the endpoint fuzzers found answered 500, kept as plain examples: a path that is not
 * valid percent-encoded UTF-8 (the router's URIError reached the error handler as an
 * unexpected error), and a body whose Content-Encoding does not match its bytes (zlib's
 * error, given status 400 by body-parser but no type the handler knew).
 */
let h: Harness;
let loc: TestLocation;
beforeAll(async () => {
  h = await Harness.start();
  loc = await h.location({ plan: 'none' });
});
afterAll(async () => {
  await h?.stop();
});

describe('Paths that are not valid percent-encoding', () => {
  it.each([
    ['put', `${P}/reservations/%C0%AF`],
    ['put', `${P}/reservations/%ZZ`],
    ['put', `${P}/reservations/%ED%A0%80`],
    ['post', `${P}/webhook-deliveries/%ED%A0%80/redeliver`],
    ['delete', `${P}/webhook-deliveries/%ED%A0%80/redeliver`],
  ] as const)(
    'When the provider API gets %s %s, then 404 not_found and nothing is stored',
    async (method, path) => {
      const before = await snapshot(h.db);

      const res = await loc.api[method](path).send(reservation({ externalId: 'x' }));

      expectEnvelope(res, 404, 'not_found');
      await expectUnchanged(h.db, before, `${method} ${path}`);
    },
  );

  it.each([
    ['post', `${B}/locations/%ED%A0%80/api-keys`],
    ['get', `${B}/locations/%ZZ/orders`],
    ['patch', `${B}/locations/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/tables/%C0%AF`],
  ] as const)('When the backoffice gets %s %s, then 404 not_found', async (method, path) => {
    const res = await h.operator[method](path).send({ label: 'x' });

    expectEnvelope(res, 404, 'not_found');
  });
});

describe('Bodies whose Content-Encoding does not match their bytes', () => {
  it.each(['gzip', 'GZIP', 'deflate', 'br'])(
    'When a plain JSON reservation is sent as %s, then 400 validation_failed and nothing is stored',
    async (encoding) => {
      const before = await snapshot(h.db);

      const res = await loc.api
        .post(`${P}/reservations`)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send(JSON.stringify(reservation()));

      expectEnvelope(res, 400, 'validation_failed');
      await expectUnchanged(h.db, before, encoding);
    },
  );

  it('When the body really is gzip, then it is read as usual', async () => {
    const body = reservation();

    const res = await loc.api
      .post(`${P}/reservations`)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((b: unknown) => b as string)
      .send(gzipSync(JSON.stringify(body)) as unknown as string);

    expect(res.status).toBe(201);
    expect(res.body.reservation.externalId).toBe(body['externalId']);
  });
});
