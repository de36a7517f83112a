import { expectEnvelope } from './support/envelope';
import { Harness, WITHOUT_WEBHOOK_FLAGS } from './support/harness';
import { P } from './support/wire';

/**
 * docs/reference/provider-api.md#register-the-endpoint: what PUT /webhook-endpoint accepts, in
 * production settings and in the permissive test ones.
 */
let permissive: Harness;
let strict: Harness;
beforeAll(async () => {
  permissive = await Harness.start();
  strict = await Harness.beside(permissive, WITHOUT_WEBHOOK_FLAGS);
});
afterAll(async () => {
  await strict?.stop();
  await permissive?.stop();
});

describe('URL policy', () => {
  it.each([
    ['a public https URL', 'https://hooks.example.test/pis', 200, 200],
    ['a public https URL with a port and query', 'https://hooks.example.test:8443/pis?x=1', 200, 200],
    ['plain http', 'http://hooks.example.test/pis', 422, 200],
    ['a loopback address', 'https://127.0.0.1/pis', 422, 200],
    ['localhost', 'https://localhost/pis', 422, 200],
    ['an IPv6 loopback', 'https://[::1]/pis', 422, 200],
    ['a host resolving to a private address', 'https://intranet.example.test/pis', 422, 200],
    ['a private address literal', 'https://192.168.1.20/pis', 422, 200],
    ['a cloud metadata address', 'https://169.254.169.254/latest', 422, 422],
    ['a host resolving to a metadata address', 'https://metadata.example.test/pis', 422, 422],
    ['a host that does not resolve', 'https://nowhere.example.test/pis', 422, 422],
    ['credentials in the URL', 'https://user:pass@hooks.example.test/pis', 422, 422],
    ['another scheme', 'ftp://hooks.example.test/pis', 422, 422],
    ['not a URL', 'hooks.example.test/pis', 422, 422],
  ])(
    'When the endpoint URL is %s (%s), then production settings answer %i and permissive ones %i',
    async (_c, url, strictStatus, permissiveStatus) => {
      const loc = await permissive.location({ plan: 'none' });

      for (const [h, status] of [
        [strict, strictStatus],
        [permissive, permissiveStatus],
      ] as const) {
        const res = await h.client(loc.key).put(`${P}/webhook-endpoint`).send({ url });
        if (status === 200) expect(res.status).toBe(200);
        else {
          expectEnvelope(res, 422, 'validation_failed');
          expect(res.body.error.details).toEqual([{ path: '/url', message: expect.any(String) }]);
        }
      }
    },
  );

  it('When a refused URL is sent, then the endpoint already registered stays as it was', async () => {
    const loc = await permissive.location({ plan: 'none' });
    const api = strict.client(loc.key);
    const registered = await api
      .put(`${P}/webhook-endpoint`)
      .send({ url: 'https://hooks.example.test/a' })
      .expect(200);

    expectEnvelope(
      await api.put(`${P}/webhook-endpoint`).send({ url: 'http://hooks.example.test/b' }),
      422,
      'validation_failed',
    );

    expect((await api.get(`${P}/webhook-endpoint`).expect(200)).body).toEqual(registered.body);
  });
});

describe('GET /healthz', () => {
  it('When a setup asks before registering, then /healthz tells which webhook URLs this deployment accepts, without a credential', async () => {
    const told = async (h: Harness) => (await h.anonymous.get('/healthz').expect(200)).body;

    expect(await told(strict)).toEqual({
      status: 'ok',
      webhookAllowInsecureUrls: false,
      webhookAllowPrivateUrls: false,
    });
    expect(await told(permissive)).toEqual({
      status: 'ok',
      webhookAllowInsecureUrls: true,
      webhookAllowPrivateUrls: true,
    });
    const onlyHttp = await Harness.beside(permissive, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    });
    try {
      expect(await told(onlyHttp)).toEqual({
        status: 'ok',
        webhookAllowInsecureUrls: true,
        webhookAllowPrivateUrls: false,
      });
    } finally {
      await onlyHttp.stop();
    }
  });
});

describe('request body', () => {
  const url = 'https://hooks.example.test/pis';
  it.each(
    (
      [
        ['a URL of 2048 characters', { url: `${url}/${'x'.repeat(2048 - url.length - 1)}` }, null],
        ['a URL of 2049 characters', { url: `${url}/${'x'.repeat(2049 - url.length - 1)}` }, '/url'],
        ['an empty URL', { url: '' }, '/url'],
        ['no URL', { events: ['table.freed'] }, '/url'],
        [
          'all four event types',
          { url, events: ['floorplan.published', 'table.occupied', 'table.freed', 'table.spend_updated'] },
          null,
        ],
        ['one event type', { url, events: ['table.spend_updated'] }, null],
        ['no event types', { url, events: [] }, '/events'],
        ['an unknown event type', { url, events: ['table.reserved'] }, '/events/0'],
        ['a repeated event type', { url, events: ['table.freed', 'table.freed'] }, '/events/1'],
        ['an unknown property', { url, secret: 'whsec_mine' }, '/secret'],
      ] as [string, Record<string, unknown>, string | null][]
    ).map(
      ([c, body, pointer]) => [c, pointer === null ? '200' : `422 at ${pointer}`, body, pointer] as const,
    ),
  )('When the endpoint is registered with %s, then %s', async (_c, _o, body, pointer) => {
    const loc = await permissive.location({ plan: 'none' });

    const res = await loc.api.put(`${P}/webhook-endpoint`).send(body);

    if (pointer === null) {
      expect(res.status).toBe(200);
      expect(res.body.url).toBe(body.url);
      return;
    }
    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details).toContainEqual({ path: pointer, message: expect.any(String) });
  });
});
