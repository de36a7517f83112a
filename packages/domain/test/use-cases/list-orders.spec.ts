import { finishOrderAs, listOrders, openWalkInOrder } from '../../src';
import { aWorld, expectOk, type World } from './use-case-world';

const open = (world: World, tableIds: string[]) =>
  openWalkInOrder(world.deps, { locationId: world.locationId, tableIds, covers: 2 });

describe('listOrders', () => {
  it('When orders are listed, then newest first, filtered by status', async () => {
    const world = await aWorld();
    const first = expectOk(await open(world, [world.tableIds[0]!]));
    world.clock.advance(1000);
    const second = expectOk(await open(world, [world.tableIds[1]!]));
    world.clock.advance(1000);
    const third = expectOk(await open(world, [world.tableIds[2]!]));
    expectOk(
      await finishOrderAs(world.deps, {
        locationId: world.locationId,
        orderId: second.id,
        how: 'closed',
      }),
    );

    const all = expectOk(await listOrders(world.deps, { locationId: world.locationId, status: null }));
    const openOnes = expectOk(await listOrders(world.deps, { locationId: world.locationId, status: 'open' }));

    expect(all.orders.map((o) => o.id)).toEqual([third.id, second.id, first.id]);
    expect(openOnes.orders.map((o) => o.id)).toEqual([third.id, first.id]);
  });
  it('When the location is unknown, then not_found', async () => {
    const world = await aWorld();

    expect(
      await listOrders(world.deps, { locationId: '00000000-0000-4000-8000-0000000000fd', status: null }),
    ).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });
});
