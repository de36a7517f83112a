import { addOrderItem, finishOrderAs, moveOrderToTables, openWalkInOrder, publishFloorPlan } from '../../src';
import { aReservationInput } from '../builders';
import { givenPublishedLocation } from '../scenarios/published-location';
import { aWorld, expectOk, later } from './use-case-world';

describe('per-location event sequence (docs/reference/webhooks.md#event-sequence)', () => {
  it('When many commands emit events, then the location sequence runs 1, 2, 3, ... without gaps, in emission order', async () => {
    const world = await aWorld(3);
    const [t1, t2, t3] = world.tableIds as [string, string, string];
    const order = expectOk(
      await openWalkInOrder(world.deps, { locationId: world.locationId, tableIds: [t1, t2], covers: 2 }),
    );
    expectOk(
      await addOrderItem(world.deps, {
        locationId: world.locationId,
        orderId: order.id,
        label: 'Tea',
        amountMinor: 300,
        quantity: 1,
      }),
    );
    expectOk(
      await moveOrderToTables(world.deps, {
        locationId: world.locationId,
        orderId: order.id,
        tableIds: [t3],
      }),
    );
    const booked = await world.given();
    expectOk(await world.put(later(booked, { status: 'seated', tableIds: [t1] })));
    expectOk(
      await finishOrderAs(world.deps, {
        locationId: world.locationId,
        orderId: order.id,
        how: 'closed',
      }),
    );
    expectOk(await publishFloorPlan(world.deps, { locationId: world.locationId }));

    const events = world.store.events(world.locationId);

    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.type)).toEqual([
      'floorplan.published',
      'table.occupied',
      'table.occupied',
      'table.spend_updated',
      'table.freed',
      'table.freed',
      'table.occupied',
      'table.occupied',
      'table.freed',
      'order.closed',
      'floorplan.published',
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('When two locations emit events, then each has its own sequence from 1', async () => {
    const a = await aWorld(1);
    const b = await aWorld(1);

    expectOk(await openWalkInOrder(a.deps, { locationId: a.locationId, tableIds: a.tableIds, covers: 1 }));

    expect(a.store.events(a.locationId).map((e) => e.sequence)).toEqual([1, 2]);
    expect(b.store.events(b.locationId).map((e) => e.sequence)).toEqual([1]);
  });

  it('When locations share one store, then their sequences stay separate', async () => {
    const world = await aWorld(1);
    const other = await givenPublishedLocation(world.deps, { tables: 1 });

    expectOk(
      await openWalkInOrder(world.deps, {
        locationId: other.locationId,
        tableIds: other.tableIds,
        covers: 1,
      }),
    );
    expectOk(
      await openWalkInOrder(world.deps, {
        locationId: world.locationId,
        tableIds: world.tableIds,
        covers: 1,
      }),
    );

    expect(world.store.events(world.locationId).map((e) => e.sequence)).toEqual([1, 2]);
    expect(world.store.events(other.locationId).map((e) => e.sequence)).toEqual([1, 2]);
  });

  it('When a command is refused, then it consumes no sequence number', async () => {
    const world = await aWorld(1);
    expectOk(
      await openWalkInOrder(world.deps, {
        locationId: world.locationId,
        tableIds: world.tableIds,
        covers: 1,
      }),
    );
    expect(
      await world.create(aReservationInput({ status: 'seated', tableIds: world.tableIds })),
    ).toMatchObject({ ok: false, code: 'table_occupied' });

    expectOk(await publishFloorPlan(world.deps, { locationId: world.locationId }));

    expect(world.store.events(world.locationId).map((e) => [e.sequence, e.type])).toEqual([
      [1, 'floorplan.published'],
      [2, 'table.occupied'],
      [3, 'floorplan.published'],
    ]);
  });
});
