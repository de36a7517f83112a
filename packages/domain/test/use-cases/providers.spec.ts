import {
  authenticateKey,
  createLocation,
  createProvider,
  createReservation,
  grantConnection,
  issueApiKey,
  issueProviderKey,
  listProviderConnections,
  openWalkInOrder,
  readEventFeed,
  resolveLocation,
  revokeConnection,
  revokeProviderKey,
  type Credential,
} from '../../src';
import { aReservationInput } from '../builders';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { expectOk, givenPublishedLocation } from '../scenarios/published-location';

/** Providers, their keys and connections, and the location a request acts on, over the in-memory adapters. */
describe('Providers and connections (use cases)', () => {
  async function world() {
    const t = createInMemoryDeps();
    const place = await givenPublishedLocation(t.deps, { tables: 3 });
    const provider = expectOk(await createProvider(t.deps, { name: 'Booker', brand: 'booker' }));
    const issued = expectOk(await issueProviderKey(t.deps, { providerId: provider.id, mode: 'live' }));
    const credential = expectOk(await authenticateKey(t.deps, { key: issued.key }));
    const resolve = (requested: string | undefined, as: Credential = credential) =>
      resolveLocation(t.deps, { credential: as, requested });
    return { ...t, ...place, provider, issued, credential, resolve };
  }

  it('When a provider key is authenticated, then it stands for its provider and names no location', async () => {
    const w = await world();

    expect(w.credential).toEqual({
      keyId: w.issued.id,
      providerId: w.provider.id,
      pinnedLocationId: null,
      mode: 'live',
    });
  });

  it('When a provider key names a location, then without a grant it is location_not_granted; granted, it acts there; revoked, not again', async () => {
    const w = await world();

    expect(await w.resolve(w.locationId)).toMatchObject({ ok: false, code: 'location_not_granted' });
    expectOk(await grantConnection(w.deps, { locationId: w.locationId, providerId: w.provider.id }));
    expect(expectOk(await w.resolve(w.locationId))).toEqual({
      locationId: w.locationId,
      sandbox: false,
      own: false,
    });
    expectOk(await revokeConnection(w.deps, { locationId: w.locationId, providerId: w.provider.id }));
    expect(await w.resolve(w.locationId)).toMatchObject({ ok: false, code: 'location_not_granted' });
  });

  it.each([
    ['no Location-Id', undefined, 'location_required'],
    ['a blank one', '  ', 'location_required'],
    ['one that is not a UUID', 'loc-1', 'validation_failed'],
  ])('When a provider key sends %s, then %s', async (_c, requested, code) => {
    const w = await world();

    expect(await w.resolve(requested)).toMatchObject({ ok: false, code });
  });

  it('When a location key names its own location or none, then it acts there as the own provider; another location is location_not_granted', async () => {
    const w = await world();
    const key = expectOk(await issueApiKey(w.deps, { locationId: w.locationId })).key;
    const own = expectOk(await authenticateKey(w.deps, { key }));
    const other = expectOk(await createLocation(w.deps, { name: 'Other', brand: 'other', currency: 'EUR' }));

    expect(own).toMatchObject({ providerId: w.locationId, pinnedLocationId: w.locationId });
    expect(expectOk(await w.resolve(undefined, own))).toEqual({
      locationId: w.locationId,
      sandbox: false,
      own: true,
    });
    expect(expectOk(await w.resolve(w.locationId.toUpperCase(), own)).own).toBe(true);
    expect(await w.resolve(other.id, own)).toMatchObject({ ok: false, code: 'location_not_granted' });
  });

  it('When a revoked provider key is presented, then it is unauthorized', async () => {
    const w = await world();
    expectOk(await revokeProviderKey(w.deps, { providerId: w.provider.id, keyId: w.issued.id }));

    expect(await authenticateKey(w.deps, { key: w.issued.key })).toMatchObject({
      ok: false,
      code: 'unauthorized',
    });
  });

  it('When the location’s own provider is revoked, then validation_failed; granting it changes nothing', async () => {
    const w = await world();

    expect(
      await revokeConnection(w.deps, { locationId: w.locationId, providerId: w.locationId }),
    ).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(
      expectOk(await grantConnection(w.deps, { locationId: w.locationId, providerId: w.locationId })),
    ).toMatchObject({
      created: false,
      connection: { own: true, status: 'active' },
    });
  });

  it('When a provider seats a reservation, then the walk-in that meets it and the location’s own feed see the order, not the reservation’s id; the provider’s own feed does', async () => {
    const w = await world();
    expectOk(await grantConnection(w.deps, { locationId: w.locationId, providerId: w.provider.id }));
    const input = aReservationInput({ status: 'seated', tableIds: [w.tableIds[0]!] });
    const seated = expectOk(
      await createReservation(w.deps, { locationId: w.locationId, providerId: w.provider.id, input }),
    );

    const refused = await openWalkInOrder(w.deps, {
      locationId: w.locationId,
      tableIds: [w.tableIds[0]!],
      covers: 2,
      reader: { providerId: w.locationId },
    });
    const venue = await openWalkInOrder(w.deps, {
      locationId: w.locationId,
      tableIds: [w.tableIds[0]!],
      covers: 2,
    });
    const theirs = expectOk(
      await readEventFeed(w.deps, {
        locationId: w.locationId,
        providerId: w.provider.id,
        after: 0,
        limit: 10,
        types: null,
      }),
    );
    const owns = expectOk(
      await readEventFeed(w.deps, { locationId: w.locationId, after: 0, limit: 10, types: null }),
    );

    const orderId = seated.reservation.linkedOrderId;
    expect(refused).toMatchObject({
      ok: false,
      code: 'table_occupied',
      occupiedBy: { orderId, reservationExternalId: null },
    });
    expect(venue).toMatchObject({ occupiedBy: { orderId, reservationExternalId: input.externalId } });
    expect(
      theirs.events.map((e) => [
        e.type,
        'reservationExternalId' in e.data ? e.data.reservationExternalId : '-',
      ]),
    ).toEqual([['table.occupied', input.externalId]]);
    expect(
      owns.events.map((e) => [
        e.type,
        'reservationExternalId' in e.data ? e.data.reservationExternalId : '-',
      ]),
    ).toEqual([
      ['floorplan.published', '-'],
      ['table.occupied', null],
    ]);
  });

  it('When a provider lists its connections, then one page holds at most the limit, by grantedAt, and the next page follows', async () => {
    const w = await world();
    const locations = [];
    for (let i = 0; i < 3; i += 1) {
      const l = expectOk(await createLocation(w.deps, { name: `L${i}`, brand: 'l', currency: 'EUR' }));
      w.clock.advance(1000);
      expectOk(await grantConnection(w.deps, { locationId: l.id, providerId: w.provider.id }));
      locations.push(l.id);
    }

    const first = expectOk(
      await listProviderConnections(w.deps, { providerId: w.provider.id, after: null, limit: 2 }),
    );
    const rest = expectOk(
      await listProviderConnections(w.deps, { providerId: w.provider.id, after: first.next, limit: 2 }),
    );

    expect([...first.items, ...rest.items].map((c) => c.locationId)).toEqual(locations);
    expect(rest.next).toBeNull();
  });
});
