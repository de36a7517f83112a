import { createHash, randomUUID } from 'node:crypto';
import type { ApiKeyRecord } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import { aLocation } from '@pis/domain/test-support';
import { commit, rollBack, useAdapters, type MakeAdapters } from './adapter-set';
import { givenLocationRow } from './fixtures';

/** A key record with a fresh SHA-256 hash (what `KeyHasher` stores). */
function aKey(locationId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const key = `acme_sk_live_${randomUUID().replace(/-/g, '')}`;
  return {
    id: randomUUID(),
    locationId,
    hash: createHash('sha256').update(key).digest('hex'),
    prefix: key.slice(0, 17),
    createdAt: at('2026-11-21T09:00:00.000001Z'),
    revokedAt: null,
    ...overrides,
  };
}

/** `LocationRepository`, `ApiKeyRepository` and `AccessQueries`. */
export function describeAccessContract(name: string, make: MakeAdapters): void {
  describe(`${name}: access contract (locations and keys)`, () => {
    const adapters = useAdapters(make);

    it('When a location is inserted, then it reads back inside and outside a transaction, microseconds included', async () => {
      const location = aLocation({
        name: 'Osteria Due',
        brand: 'osteria2',
        currency: 'CHF',
        createdAt: at('2026-11-21T08:00:00.987654Z'),
      });

      await commit(adapters().uow, (tx) => tx.locations.insert(location));

      expect(await adapters().queries.access.findLocation(location.id)).toStrictEqual(location);
      expect(await commit(adapters().uow, (tx) => tx.locations.findById(location.id))).toStrictEqual(
        location,
      );
    });

    it('When a sandbox location is inserted beside a live one, then each reads back with its own flag', async () => {
      const sandbox = aLocation({ sandbox: true });
      const live = aLocation({ sandbox: false });

      await commit(adapters().uow, async (tx) => {
        await tx.locations.insert(sandbox);
        await tx.locations.insert(live);
      });

      expect((await adapters().queries.access.findLocation(sandbox.id))?.sandbox).toBe(true);
      expect((await adapters().queries.access.findLocation(live.id))?.sandbox).toBe(false);
      expect((await commit(adapters().uow, (tx) => tx.locations.findById(sandbox.id)))?.sandbox).toBe(true);
    });

    it('When a location id is unknown, then it is not found', async () => {
      const id = randomUUID();

      expect(await adapters().queries.access.findLocation(id)).toBeNull();
      expect(await commit(adapters().uow, (tx) => tx.locations.findById(id))).toBeNull();
    });

    it('When a location commits, then the count grows by one; when one rolls back, it does not', async () => {
      const before = await adapters().queries.access.countLocations();

      await givenLocationRow(adapters().uow);
      await rollBack(adapters().uow, (tx) => tx.locations.insert(aLocation()));

      expect(await adapters().queries.access.countLocations()).toBe(before + 1);
    });

    it('When a key is stored, then its hash finds its id and location', async () => {
      const location = await givenLocationRow(adapters().uow);
      const key = aKey(location.id);

      await commit(adapters().uow, (tx) => tx.apiKeys.insert(key));

      const found = await adapters().queries.access.findActiveKeyByHash(key.hash);
      expect([found?.id, found?.locationId]).toEqual([key.id, location.id]);
    });

    it('When a hash is unknown, then no key is found', async () => {
      const unknown = createHash('sha256').update(randomUUID()).digest('hex');

      expect(await adapters().queries.access.findActiveKeyByHash(unknown)).toBeNull();
    });

    it('When a key is revoked, then revoke answers true and its hash no longer finds it; a second key stays active', async () => {
      const location = await givenLocationRow(adapters().uow);
      const revoked = aKey(location.id);
      const kept = aKey(location.id);
      await commit(adapters().uow, async (tx) => {
        await tx.apiKeys.insert(revoked);
        await tx.apiKeys.insert(kept);
      });

      const answer = await commit(adapters().uow, (tx) =>
        tx.apiKeys.revoke(location.id, revoked.id, at('2026-11-21T10:00:00Z')),
      );

      expect(answer).toBe(true);
      expect(await adapters().queries.access.findActiveKeyByHash(revoked.hash)).toBeNull();
      expect((await adapters().queries.access.findActiveKeyByHash(kept.hash))?.id).toBe(kept.id);
    });

    it('When another location or an unknown id is revoked, then revoke answers false and the key stays active', async () => {
      const location = await givenLocationRow(adapters().uow);
      const other = await givenLocationRow(adapters().uow);
      const key = aKey(location.id);
      await commit(adapters().uow, (tx) => tx.apiKeys.insert(key));

      const answers = await commit(adapters().uow, async (tx) => [
        await tx.apiKeys.revoke(other.id, key.id, at('2026-11-21T10:00:00Z')),
        await tx.apiKeys.revoke(location.id, randomUUID(), at('2026-11-21T10:00:00Z')),
      ]);

      expect(answers).toEqual([false, false]);
      expect((await adapters().queries.access.findActiveKeyByHash(key.hash))?.id).toBe(key.id);
    });

    it('When a key was stored already revoked, then its hash does not find it', async () => {
      const location = await givenLocationRow(adapters().uow);
      const key = aKey(location.id, { revokedAt: at('2026-11-21T09:30:00Z') });

      await commit(adapters().uow, (tx) => tx.apiKeys.insert(key));

      expect(await adapters().queries.access.findActiveKeyByHash(key.hash)).toBeNull();
    });

    it('When a revocation rolls back, then the key stays active', async () => {
      const location = await givenLocationRow(adapters().uow);
      const key = aKey(location.id);
      await commit(adapters().uow, (tx) => tx.apiKeys.insert(key));

      await rollBack(adapters().uow, (tx) =>
        tx.apiKeys.revoke(location.id, key.id, at('2026-11-21T10:00:00Z')),
      );

      expect((await adapters().queries.access.findActiveKeyByHash(key.hash))?.id).toBe(key.id);
    });
  });
}
