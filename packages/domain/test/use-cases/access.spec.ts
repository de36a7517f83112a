import { authenticate, createLocation, displayPrefix, issueApiKey, revokeApiKey } from '../../src';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenLocation } from '../scenarios/published-location';
import { expectOk } from './use-case-world';

describe('locations and API keys (docs/reference/backoffice-api.md#locations-and-keys)', () => {
  it('When a location is created, then it is stored with an id and the clock time', async () => {
    const { deps, clock } = createInMemoryDeps();

    const location = expectOk(
      await createLocation(deps, { name: 'Bistro', brand: 'bistro1', currency: 'GBP' }),
    );

    expect(location).toStrictEqual({
      id: expect.any(String),
      name: 'Bistro',
      brand: 'bistro1',
      currency: 'GBP',
      sandbox: false,
      createdAt: clock.now(),
    });
    expect(await deps.queries.access.findLocation(location.id)).toStrictEqual(location);
  });

  it("When a key is issued, then it has the brand's live prefix and authenticates to its location", async () => {
    const { deps, clock } = createInMemoryDeps();
    const location = await givenLocation(deps, { brand: 'acme' });

    const issued = expectOk(await issueApiKey(deps, { locationId: location.id }));

    expect(issued.key).toMatch(/^acme_sk_live_[A-Za-z0-9]{32,}$/);
    expect(issued.createdAt).toEqual(clock.now());
    expect(expectOk(await authenticate(deps, { key: issued.key }))).toEqual({
      locationId: location.id,
      keyId: issued.id,
      sandbox: false,
    });
  });

  it('When a sandbox location issues a key, then it is a test key that authenticates as sandbox', async () => {
    const { deps } = createInMemoryDeps();
    const location = expectOk(
      await createLocation(deps, { name: 'Try-out', brand: 'acme', currency: 'EUR', sandbox: true }),
    );

    const issued = expectOk(await issueApiKey(deps, { locationId: location.id }));

    expect(location.sandbox).toBe(true);
    expect(issued.key).toMatch(/^acme_sk_test_[A-Za-z0-9]{32,}$/);
    expect(displayPrefix(issued.key)).toBe(issued.key.slice(0, 'acme_sk_test_'.length + 4));
    expect(expectOk(await authenticate(deps, { key: issued.key }))).toEqual({
      locationId: location.id,
      keyId: issued.id,
      sandbox: true,
    });
  });

  it('When a stored key names the other mode than its location (live key, sandbox location, or the reverse), then it is refused', async () => {
    const mismatched = (sandbox: boolean) => ({
      apiKey: (brand: string) =>
        `${brand}_sk_${sandbox ? 'live' : 'test'}_${'A'.repeat(20)}${Math.random().toString(36).slice(2).padEnd(20, 'x')}`,
      webhookSecret: () => 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
    });
    for (const sandbox of [true, false]) {
      const { deps } = createInMemoryDeps({ secrets: mismatched(sandbox) });
      const location = expectOk(
        await createLocation(deps, { name: 'Mixed', brand: 'acme', currency: 'EUR', sandbox }),
      );
      const issued = expectOk(await issueApiKey(deps, { locationId: location.id }));

      expect(issued.key).toContain(sandbox ? '_sk_live_' : '_sk_test_');
      expect(await authenticate(deps, { key: issued.key })).toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
    }
  });

  it('When two locations have keys, then each key authenticates to its own location', async () => {
    const { deps } = createInMemoryDeps();
    const a = await givenLocation(deps);
    const b = await givenLocation(deps);

    const keyA = expectOk(await issueApiKey(deps, { locationId: a.id })).key;
    const keyB = expectOk(await issueApiKey(deps, { locationId: b.id })).key;

    expect(expectOk(await authenticate(deps, { key: keyA })).locationId).toBe(a.id);
    expect(expectOk(await authenticate(deps, { key: keyB })).locationId).toBe(b.id);
  });

  it('When a key is revoked, then it is refused from then on and another key of the location still works', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps);
    const revoked = expectOk(await issueApiKey(deps, { locationId: location.id }));
    const kept = expectOk(await issueApiKey(deps, { locationId: location.id }));

    expectOk(await revokeApiKey(deps, { locationId: location.id, keyId: revoked.id }));

    expect(await authenticate(deps, { key: revoked.key })).toMatchObject({ ok: false, code: 'unauthorized' });
    expect((await authenticate(deps, { key: kept.key })).ok).toBe(true);
  });

  it('When a key is revoked through another location, then not_found and the key still works', async () => {
    const { deps } = createInMemoryDeps();
    const owner = await givenLocation(deps);
    const other = await givenLocation(deps);
    const issued = expectOk(await issueApiKey(deps, { locationId: owner.id }));

    expect(await revokeApiKey(deps, { locationId: other.id, keyId: issued.id })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    expect((await authenticate(deps, { key: issued.key })).ok).toBe(true);
  });

  it('When a key is issued for an unknown location, then not_found', async () => {
    const { deps } = createInMemoryDeps();

    expect(await issueApiKey(deps, { locationId: '00000000-0000-4000-8000-0000000000ee' })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });

  it.each([
    ['empty', ''],
    ['malformed', 'Bearer acme_sk_live_x'],
    ['well formed but unknown', `acme_sk_live_${'A'.repeat(40)}`],
    ['upper-case brand', `ACME_sk_live_${'A'.repeat(40)}`],
    ['too short a secret part', `acme_sk_live_${'A'.repeat(31)}`],
  ])('When the key is %s, then unauthorized', async (_, key) => {
    const { deps } = createInMemoryDeps();

    expect(await authenticate(deps, { key })).toMatchObject({
      ok: false,
      code: 'unauthorized',
      occupiedBy: null,
    });
  });

  it('When a key is issued, then only its hash and a display prefix are stored, never the key', async () => {
    const { deps, store } = createInMemoryDeps();
    const location = await givenLocation(deps);

    const issued = expectOk(await issueApiKey(deps, { locationId: location.id }));

    const records = store.apiKeys(location.id);
    expect(records).toStrictEqual([
      {
        id: issued.id,
        locationId: location.id,
        hash: deps.hasher.hash(issued.key),
        prefix: issued.key.slice(0, 'acme_sk_live_'.length + 4),
        createdAt: issued.createdAt,
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(records)).not.toContain(issued.key);
  });
});

describe('displayPrefix', () => {
  it.each([
    ['acme_sk_live_AbCdEfGh', 'acme_sk_live_AbCd'],
    ['ab_sk_live_0123456789', 'ab_sk_live_0123'],
  ])('When the key is %s, then its display prefix is %s', (key, prefix) => {
    expect(displayPrefix(key)).toBe(prefix);
  });
});
