import { createHash, randomUUID } from 'node:crypto';
import type { DomainEvent, Provider, ProviderKeyRecord } from '@pis/domain';
import { at, plusMillis } from '@pis/domain/test-support';
import { anOrder } from '@pis/domain/test-support';
import { aReservation, aReservationInput } from '@pis/domain/test-support';
import { commit, useAdapters, type MakeAdapters } from './adapter-set';
import { givenDraftTables, givenLocationRow } from './fixtures';
import { anEvent } from './outbox.contract';

let made = 0;
/** A provider record; each one made later than the one before, so newest-first order is known. */
function aProvider(overrides: Partial<Provider> = {}): Provider {
  made += 1;
  return {
    id: randomUUID(),
    name: `Provider ${made}`,
    brand: 'prov',
    createdAt: plusMillis(at('2026-11-21T08:00:00.000001Z'), made),
    ...overrides,
  };
}

function aProviderKey(providerId: string): ProviderKeyRecord {
  const key = `prov_pk_live_${randomUUID().replace(/-/g, '')}`;
  return {
    id: randomUUID(),
    providerId,
    hash: createHash('sha256').update(key).digest('hex'),
    prefix: key.slice(0, 17),
    mode: 'live',
    createdAt: at('2026-11-21T09:00:00.000001Z'),
    revokedAt: null,
  };
}

/**
 * `ProviderRepository`, `ConnectionRepository`, the access queries over them, and the scoping
 * every other port does by provider: reservations per provider, the owner carried by orders
 * and events, the feed's connection spans.
 */
export function describeProvidersContract(name: string, make: MakeAdapters): void {
  describe(`${name}: providers and connections contract`, () => {
    const adapters = useAdapters(make);
    const givenProvider = async () => {
      const provider = aProvider();
      await commit(adapters().uow, (tx) => tx.providers.insert(provider));
      return provider;
    };
    const grant = (locationId: string, providerId: string, minute = 0) =>
      commit(adapters().uow, (tx) =>
        tx.connections.grant(locationId, providerId, plusMillis(at('2026-11-21T10:00:00Z'), minute * 60_000)),
      );
    const revoke = (locationId: string, providerId: string) =>
      commit(adapters().uow, (tx) =>
        tx.connections.revoke(locationId, providerId, at('2026-11-21T11:00:00.000002Z')),
      );
    const append = (locationId: string, events: DomainEvent[]) =>
      commit(adapters().uow, (tx) => tx.outbox.append(locationId, events));

    it('When a location is inserted, then its own provider (the location’s id) is connected to it and listed as its own, yet is no provider of the operator’s', async () => {
      const location = await givenLocationRow(adapters().uow, { name: 'Own Place' });
      const { access } = adapters().queries;

      expect(await access.isConnected(location.id, location.id)).toBe(true);
      expect(await access.listLocationConnections(location.id)).toEqual([
        {
          locationId: location.id,
          providerId: location.id,
          providerName: 'Own Place',
          own: true,
          status: 'active',
          grantedAt: location.createdAt,
          revokedAt: null,
        },
      ]);
      expect(await access.findProvider(location.id)).toBeNull();
    });

    it('When providers are inserted, then each reads back by id and they list newest first, a page after a cursor', async () => {
      const [p1, p2, p3] = [await givenProvider(), await givenProvider(), await givenProvider()];
      const { access } = adapters().queries;

      expect(await access.findProvider(p2.id)).toStrictEqual(p2);
      const newest = await access.listProviders(null, 1000);
      const mine = newest.filter((p) => [p1.id, p2.id, p3.id].includes(p.id));
      expect(mine.map((p) => p.id)).toEqual([p3.id, p2.id, p1.id]);
      expect((await access.listProviders({ createdAt: p3.createdAt, id: p3.id }, 1))[0]?.id).toBe(p2.id);
    });

    it('When a provider key is stored, then its hash finds it with its provider and no location; revoked, it is found no more, and another provider cannot revoke it', async () => {
      const provider = await givenProvider();
      const other = await givenProvider();
      const key = aProviderKey(provider.id);
      await commit(adapters().uow, (tx) => tx.providers.insertKey(key));
      const { access } = adapters().queries;

      expect(await access.findActiveKeyByHash(key.hash)).toEqual({
        id: key.id,
        providerId: provider.id,
        locationId: null,
      });
      expect(
        await commit(adapters().uow, (tx) =>
          tx.providers.revokeKey(other.id, key.id, at('2026-11-22T00:00:00Z')),
        ),
      ).toBe(false);
      expect(
        await commit(adapters().uow, (tx) =>
          tx.providers.revokeKey(provider.id, key.id, at('2026-11-22T00:00:00Z')),
        ),
      ).toBe(true);
      expect(await access.findActiveKeyByHash(key.hash)).toBeNull();
    });

    it('When a connection is granted, granted again, revoked, revoked again and re-granted, then each step says what it did and isConnected follows', async () => {
      const location = await givenLocationRow(adapters().uow);
      const provider = await givenProvider();
      const { access } = adapters().queries;

      const created = await grant(location.id, provider.id, 1);
      const unchanged = await grant(location.id, provider.id, 2);
      expect(await access.isConnected(provider.id, location.id)).toBe(true);
      const revoked = await revoke(location.id, provider.id);
      const again = await revoke(location.id, provider.id);
      expect(await access.isConnected(provider.id, location.id)).toBe(false);
      const regranted = await grant(location.id, provider.id, 3);

      expect([created.kind, unchanged.kind, revoked.kind, again.kind, regranted.kind]).toEqual([
        'created',
        'unchanged',
        'revoked',
        'unchanged',
        'regranted',
      ]);
      expect(unchanged.connection).toEqual(created.connection);
      expect(revoked.kind === 'revoked' && revoked.connection).toMatchObject({
        status: 'revoked',
        revokedAt: at('2026-11-21T11:00:00.000002Z'),
      });
      expect(regranted.connection).toEqual({
        locationId: location.id,
        providerId: provider.id,
        status: 'active',
        grantedAt: at('2026-11-21T10:03:00Z'),
        revokedAt: null,
      });
      expect(await access.isConnected(provider.id, location.id)).toBe(true);
      expect(await revoke(location.id, (await givenProvider()).id)).toEqual({ kind: 'none' });
    });

    it('When a provider is connected to several locations, then it lists them by grantedAt with each location’s name, currency and sandbox flag, a page after a cursor', async () => {
      const provider = await givenProvider();
      const locations = [
        await givenLocationRow(adapters().uow, { name: 'One', currency: 'CHF' }),
        await givenLocationRow(adapters().uow, { name: 'Two', sandbox: true }),
        await givenLocationRow(adapters().uow, { name: 'Three' }),
      ];
      for (const [i, l] of [locations[2]!, locations[0]!, locations[1]!].entries())
        await grant(l.id, provider.id, i);
      await revoke(locations[0]!.id, provider.id);
      const { access } = adapters().queries;

      const all = await access.listProviderConnections(provider.id, null, 10);
      const after = await access.listProviderConnections(
        provider.id,
        { grantedAt: all[0]!.grantedAt, locationId: all[0]!.locationId },
        1,
      );

      expect(all.map((c) => [c.name, c.currency, c.sandbox, c.status])).toEqual([
        ['Three', 'EUR', false, 'active'],
        ['One', 'CHF', false, 'revoked'],
        ['Two', 'EUR', true, 'active'],
      ]);
      expect(after.map((c) => c.name)).toEqual(['One']);
      expect((await access.listLocationConnections(locations[0]!.id)).map((c) => [c.own, c.status])).toEqual([
        [true, 'active'],
        [false, 'revoked'],
      ]);
    });

    it('When events are committed before a grant, while connected, after a revoke and after a re-grant, then the provider’s feed holds exactly those committed while connected', async () => {
      const location = await givenLocationRow(adapters().uow);
      const provider = await givenProvider();
      await append(location.id, [anEvent(1)]);
      await grant(location.id, provider.id);
      await append(location.id, [anEvent(2), anEvent(3)]);
      await revoke(location.id, provider.id);
      await append(location.id, [anEvent(4)]);
      await grant(location.id, provider.id);
      await append(location.id, [anEvent(5)]);
      const page = (providerId?: string, after = 0, limit = 10) =>
        adapters().queries.events.page({
          locationId: location.id,
          ...(providerId ? { providerId } : {}),
          after,
          limit,
          types: null,
        });

      expect((await page(provider.id)).events.map((e) => e.sequence)).toEqual([2, 3, 5]);
      expect((await page(provider.id, 2, 2)).events.map((e) => e.sequence)).toEqual([3, 5]);
      expect((await page()).events.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5]);
      expect((await page((await givenProvider()).id)).events).toEqual([]);
    });

    it('When two providers insert the same externalId, then both are stored, each read, locked and listed in its own provider’s scope only', async () => {
      const location = await givenLocationRow(adapters().uow);
      const [a, b] = [await givenProvider(), await givenProvider()];
      const mine = aReservation(location.id, { externalId: 'shared' });
      const theirs = aReservation(location.id, { externalId: 'shared', partyName: 'Theirs' });
      const { uow, queries } = adapters();

      const inserted = await commit(uow, async (tx) => [
        await tx.reservations.insert(mine, a.id),
        await tx.reservations.insert(theirs, b.id),
      ]);
      const duplicate = await commit(uow, (tx) =>
        tx.reservations.insert(aReservation(location.id, { externalId: 'shared' }), a.id),
      );
      const window = {
        locationId: location.id,
        from: at('2026-11-01T00:00:00Z'),
        to: at('2026-11-30T00:00:00Z'),
        after: null,
        limit: 10,
      };

      expect(inserted).toEqual(['inserted', 'inserted']);
      expect(duplicate).toBe('duplicate');
      expect(await queries.reservations.findByExternalId(location.id, 'shared', a.id)).toStrictEqual(mine);
      expect(await queries.reservations.findByExternalId(location.id, 'shared', b.id)).toStrictEqual(theirs);
      expect(await queries.reservations.findByExternalId(location.id, 'shared')).toBeNull();
      expect(
        await commit(uow, (tx) => tx.reservations.lockForWrite(location.id, 'shared', b.id)),
      ).toStrictEqual(theirs);
      expect(
        (await queries.reservations.listWindow({ ...window, providerId: a.id })).map((r) => r.id),
      ).toEqual([mine.id]);
      expect(await queries.reservations.listWindow(window)).toEqual([]);
    });

    it('When a provider updates through the one-statement path, then only its own reservation of that externalId is touched', async () => {
      const location = await givenLocationRow(adapters().uow);
      const [a, b] = [await givenProvider(), await givenProvider()];
      const { uow, queries } = adapters();
      const writes = adapters().plainWrites;
      const original = aReservation(location.id, { externalId: 'plain' });
      await commit(uow, (tx) => tx.reservations.insert(original, a.id));
      const later = aReservationInput({
        externalId: 'plain',
        status: 'cancelled',
        updatedAt: at('2026-11-21T00:00:00Z'),
      });

      const missing = writes
        ? await writes.update(location.id, later, at('2026-11-21T00:00:01Z'), b.id)
        : { kind: 'missing' };
      const applied = writes
        ? await writes.update(location.id, later, at('2026-11-21T00:00:01Z'), a.id)
        : { kind: 'applied' };

      expect([missing.kind, applied.kind]).toEqual(['missing', 'applied']);
      if (writes)
        expect((await queries.reservations.findByExternalId(location.id, 'plain', a.id))?.status).toBe(
          'cancelled',
        );
    });

    it('When an order seated by a provider’s reservation is stored, then it, its tables’ holders and its events carry that provider; a walk-in carries none', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 2);
      const provider = randomUUID();
      const seated = anOrder(location.id, [tableIds[0]!], {
        reservationExternalId: 'r-9',
        reservationProviderId: provider,
      });
      const walkIn = anOrder(location.id, [tableIds[1]!]);
      const owned: DomainEvent = { ...anEvent(1, 'r-9'), reservationProviderId: provider };

      const holders = await commit(adapters().uow, async (tx) => {
        await tx.orders.insert(seated);
        await tx.orders.insert(walkIn);
        await tx.outbox.append(location.id, [owned, anEvent(2)]);
        return tx.orders.lockTables(location.id, tableIds);
      });
      const page = await adapters().queries.events.page({
        locationId: location.id,
        after: 0,
        limit: 10,
        types: null,
      });

      expect(holders).toEqual(
        expect.arrayContaining([
          {
            tableId: tableIds[0],
            orderId: seated.id,
            reservationExternalId: 'r-9',
            reservationProviderId: provider,
          },
          { tableId: tableIds[1], orderId: walkIn.id, reservationExternalId: null },
        ]),
      );
      expect(await adapters().queries.orders.findById(location.id, seated.id)).toStrictEqual(seated);
      expect(await adapters().queries.orders.findById(location.id, walkIn.id)).toStrictEqual(walkIn);
      expect(page.events.map((e) => e.reservationProviderId)).toEqual([provider, undefined]);
      expect('reservationProviderId' in page.events[1]!).toBe(false);
    });
  });
}
