import {
  deleteWebhookEndpoint,
  EVENT_TYPES,
  getWebhookEndpoint,
  listLocationWebhookDeliveries,
  listWebhookDeliveries,
  liveSecrets,
  redeliverLocationWebhook,
  redeliverWebhook,
  registerWebhookEndpoint,
  rotateWebhookSecret,
  type EventType,
  type Instant,
  type WebhookDelivery,
} from '../../src';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenLocation } from '../scenarios/published-location';
import { expectOk } from './use-case-world';

const HOUR_MS = 3_600_000;

async function aProvider(options: { requireHttps?: boolean } = {}) {
  const t = createInMemoryDeps(options);
  const location = await givenLocation(t.deps);
  const locationId = location.id;
  return {
    ...t,
    locationId,
    register: (url = 'https://provider.example.com/hooks', events: EventType[] | null = null) =>
      registerWebhookEndpoint(t.deps, { locationId, url, events }),
    get: () => getWebhookEndpoint(t.deps, { locationId }),
    remove: () => deleteWebhookEndpoint(t.deps, { locationId }),
    rotate: () => rotateWebhookSecret(t.deps, { locationId }),
  };
}

describe('webhook endpoint (docs/reference/provider-api.md#webhook-endpoint)', () => {
  it('When an endpoint is registered without events, then it receives every event type and gets a whsec_ secret', async () => {
    const p = await aProvider();

    const endpoint = expectOk(await p.register());

    expect(endpoint).toMatchObject({
      url: 'https://provider.example.com/hooks',
      events: [...EVENT_TYPES],
      createdAt: p.clock.now(),
      updatedAt: p.clock.now(),
      disabledAt: null,
    });
    expect(endpoint.secrets).toEqual([
      { secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/), expiresAt: null },
    ]);
    expect(expectOk(await p.get())).toStrictEqual(endpoint);
  });

  it('When events are named, then only those are kept, in the canonical order', async () => {
    const p = await aProvider();

    const endpoint = expectOk(await p.register(undefined, ['table.freed', 'floorplan.published']));

    expect(endpoint.events).toEqual(['floorplan.published', 'table.freed']);
  });

  it('When an endpoint is registered again, then url and events change while id, createdAt and secrets stay', async () => {
    const p = await aProvider();
    const first = expectOk(await p.register());
    p.clock.advance(60_000);

    const second = expectOk(await p.register('https://provider.example.com/v2', ['table.occupied']));

    expect(second).toStrictEqual({
      ...first,
      url: 'https://provider.example.com/v2',
      events: ['table.occupied'],
      updatedAt: p.clock.now(),
    });
  });

  it('When the URL policy refuses the URL, then 422 validation_failed names the reason and nothing is stored', async () => {
    const p = await aProvider({ requireHttps: true });
    p.urlPolicy.refuse(/169\.254\./, 'the host resolves to a link-local address');

    const insecure = await p.register('http://provider.example.com/hooks');
    const metadata = await p.register('https://169.254.169.254/latest');

    expect(insecure).toMatchObject({
      ok: false,
      code: 'validation_failed',
      message: 'the webhook URL must use https',
    });
    expect(metadata).toMatchObject({ ok: false, code: 'validation_failed', details: [{ path: '/url' }] });
    expect(await p.get()).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When there is no endpoint, then get, delete and rotate are not_found', async () => {
    const p = await aProvider();

    expect([await p.get(), await p.remove(), await p.rotate()].map((o) => !o.ok && o.code)).toEqual([
      'not_found',
      'not_found',
      'not_found',
    ]);
  });

  it('When the endpoint is deleted, then it is gone and a second delete is not_found', async () => {
    const p = await aProvider();
    expectOk(await p.register());

    expect(expectOk(await p.remove())).toEqual({ deleted: true });
    expect(await p.get()).toMatchObject({ ok: false, code: 'not_found' });
    expect(await p.remove()).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When the secret is rotated, then the new one signs and the old one keeps signing for exactly 24 h', async () => {
    const p = await aProvider();
    const old = expectOk(await p.register()).secrets[0]!.secret;
    p.clock.advance(1000);

    const rotated = expectOk(await p.rotate());

    const expiresAt = p.clock.now().plusMicros(24n * 3600n * 1_000_000n);
    const fresh = rotated.secrets[0]!.secret;
    expect(fresh).not.toBe(old);
    expect(rotated.secrets).toEqual([
      { secret: fresh, expiresAt: null },
      { secret: old, expiresAt },
    ]);
    expect(rotated.updatedAt).toEqual(p.clock.now());
    const signingAt = (at: Instant) => liveSecrets(rotated, at).map((s) => s.secret);
    expect(signingAt(expiresAt.plusMicros(-1n))).toContain(old);
    expect(signingAt(expiresAt)).not.toContain(old);
  });

  it('When the secret is rotated again after 24 h, then the expired secret is dropped', async () => {
    const p = await aProvider();
    const first = expectOk(await p.register()).secrets[0]!.secret;
    const second = expectOk(await p.rotate()).secrets[0]!.secret;
    p.clock.advance(24 * HOUR_MS);

    const third = expectOk(await p.rotate());

    expect(third.secrets.map((s) => s.secret)).toEqual([third.secrets[0]!.secret, second]);
    expect(third.secrets.map((s) => s.secret)).not.toContain(first);
  });
});

describe('webhook deliveries', () => {
  function aDelivery(
    locationId: string,
    n: number,
    status: WebhookDelivery['status'],
    createdAt: Instant,
  ): WebhookDelivery {
    return {
      id: `00000000-0000-4000-8000-0000000d${n.toString(16).padStart(4, '0')}`,
      locationId,
      endpointId: '00000000-0000-4000-8000-00000000e001',
      eventId: `00000000-0000-4000-8000-0000000e${n.toString(16).padStart(4, '0')}`,
      eventType: 'table.occupied',
      sequence: n,
      status,
      attempts: [],
      nextAttemptAt: null,
      createdAt,
      updatedAt: createdAt,
    };
  }

  it('When deliveries are listed, then newest first, by status, a page at a time', async () => {
    const p = await aProvider();
    const base = p.clock.now();
    for (let n = 1; n <= 5; n += 1) {
      await p.store.addDelivery(
        aDelivery(p.locationId, n, n % 2 === 0 ? 'failed' : 'succeeded', base.plusMicros(BigInt(n))),
      );
    }
    const list = (
      status: WebhookDelivery['status'] | null,
      after: { createdAt: Instant; id: string } | null,
    ) => listWebhookDeliveries(p.deps, { locationId: p.locationId, status, limit: 2, after });

    const first = expectOk(await list(null, null));
    const second = expectOk(await list(null, first.next));
    const third = expectOk(await list(null, second.next));
    const failed = expectOk(await list('failed', null));

    expect([first, second, third].map((page) => page.items.map((d) => d.sequence))).toEqual([
      [5, 4],
      [3, 2],
      [1],
    ]);
    expect(third.next).toBeNull();
    expect(failed.items.map((d) => d.sequence)).toEqual([4, 2]);
  });

  it('When a failed delivery is redelivered, then it is pending and due now; an unknown one is not_found', async () => {
    const p = await aProvider();
    const delivery = aDelivery(p.locationId, 1, 'failed', p.clock.now());
    await p.store.addDelivery(delivery);
    p.clock.advance(HOUR_MS);

    const answer = expectOk(
      await redeliverWebhook(p.deps, { locationId: p.locationId, deliveryId: delivery.id }),
    );
    const unknown = await redeliverWebhook(p.deps, {
      locationId: p.locationId,
      deliveryId: '00000000-0000-4000-8000-0000000000d0',
    });

    expect(answer).toEqual({ deliveryId: delivery.id });
    expect(p.store.deliveries(p.locationId)).toEqual([
      { ...delivery, status: 'pending', nextAttemptAt: p.clock.now(), updatedAt: p.clock.now() },
    ]);
    expect(unknown).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When the operator reads or redelivers, then it gets the provider answers; at an unknown location not_found', async () => {
    const p = await aProvider();
    const delivery = aDelivery(p.locationId, 1, 'failed', p.clock.now());
    await p.store.addDelivery(delivery);
    const unknown = '00000000-0000-4000-8000-0000000000ff';
    const list = { status: null, limit: 10, after: null };

    const listed = expectOk(
      await listLocationWebhookDeliveries(p.deps, { locationId: p.locationId, ...list }),
    );
    const redelivered = expectOk(
      await redeliverLocationWebhook(p.deps, { locationId: p.locationId, deliveryId: delivery.id }),
    );

    expect(listed.items.map((d) => d.id)).toEqual([delivery.id]);
    expect(redelivered).toEqual({ deliveryId: delivery.id });
    expect(p.store.deliveries(p.locationId)[0]?.status).toBe('pending');
    expect(await listLocationWebhookDeliveries(p.deps, { locationId: unknown, ...list })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect(
      await redeliverLocationWebhook(p.deps, { locationId: unknown, deliveryId: delivery.id }),
    ).toMatchObject({ ok: false, code: 'not_found' });
  });
});
