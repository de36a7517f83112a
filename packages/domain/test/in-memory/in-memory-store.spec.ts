import { fail, ok, Instant } from '../../src';
import { anOrder } from '../builders';
import { aReservation } from '../builders';
import { aLocation } from '../builders';
import { RandomIds } from '../system/ids';
import { detach } from './detach';
import { InMemoryDomainStore } from './in-memory-store';

describe('in-memory store: what the contract suites cannot say', () => {
  const aStore = () => new InMemoryDomainStore(new RandomIds());

  it('When a unit of work starts inside another, then it throws instead of waiting for itself forever', async () => {
    const store = aStore();

    const nested = store.uow.run(async () => store.uow.run(async () => ok(1)));

    await expect(nested).rejects.toThrow('inside another unit of work');
    expect((await store.uow.run(async () => ok('the store is still usable'))).ok).toBe(true);
  });

  it('When a transaction is used after its unit of work ended, then it throws', async () => {
    const store = aStore();
    let leaked: Parameters<Parameters<typeof store.uow.run>[0]>[0] | null = null;
    await store.uow.run(async (tx) => {
      leaked = tx;
      return ok(null);
    });

    await expect(leaked!.locations.findById('x')).rejects.toThrow('after its unit of work ended');
  });

  it('When an open order would take a table another open order holds, then the store refuses (two holders are impossible)', async () => {
    const store = aStore();
    const location = aLocation();
    const table = '00000000-0000-4000-8000-000000000001';
    const first = anOrder(location.id, [table]);
    await store.uow.run(async (tx) => {
      await tx.locations.insert(location);
      await tx.orders.insert(first);
      return ok(null);
    });

    const second = store.uow.run(async (tx) => {
      await tx.orders.insert(anOrder(location.id, [table]));
      return ok(null);
    });

    await expect(second).rejects.toThrow(`table ${table} is held by open order ${first.id}`);
    expect(store.holderOf(location.id, table)).toBe(first.id);
    expect(store.orders(location.id)).toHaveLength(1);
  });

  it('When a caller changes what it read or wrote, then the stored value does not change', async () => {
    const store = aStore();
    const location = aLocation();
    const reservation = aReservation(location.id, { tableIds: ['t-1'] });
    await store.uow.run(async (tx) => {
      await tx.locations.insert(location);
      await tx.reservations.insert(reservation);
      return ok(null);
    });

    reservation.tableIds.push('t-written-after');
    const read = await store.queries.reservations.findByExternalId(location.id, reservation.externalId);
    read!.tableIds.push('t-read-after');

    expect(
      (await store.queries.reservations.findByExternalId(location.id, reservation.externalId))?.tableIds,
    ).toEqual(['t-1']);
  });

  it('When a failed unit of work wrote, then the committed state is the one before it', async () => {
    const store = aStore();
    const location = aLocation();

    await store.uow.run(async (tx) => {
      await tx.locations.insert(location);
      return fail('validation_failed', 'no');
    });

    expect(await store.queries.access.countLocations()).toBe(0);
  });

  it('When a value holding instants is detached, then the copy is deep and the instants keep their prototype', () => {
    const value = { at: Instant.fromEpochMicros(1n), list: [{ at: Instant.fromEpochMicros(2n) }] };

    const copy = detach(value);

    expect(copy).not.toBe(value);
    expect(copy.list[0]).not.toBe(value.list[0]);
    expect(copy.list[0]!.at).toBeInstanceOf(Instant);
    expect(copy.at.toIsoMicros()).toBe('1970-01-01T00:00:00.000001Z');
  });
});
