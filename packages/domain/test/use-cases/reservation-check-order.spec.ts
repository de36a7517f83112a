import {
  createReservation,
  editTable,
  openWalkInOrder,
  publishFloorPlan,
  updateReservation,
} from '../../src';
import { aReservationInput } from '../builders';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenLocation } from '../scenarios/published-location';
import { aWorld, expectOk, later } from './use-case-world';

/**
 * docs/reference/errors.md#check-order: body, existence, staleness, floor plan / table ids, occupancy; the
 * first check that fails answers. One test per adjacent pair, each failing both checks.
 */
describe('reservation writes: the first failing check answers', () => {
  const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

  it('When a PUT fails the body and existence, then the body answers (validation_failed, not unknown_reservation)', async () => {
    const world = await aWorld();

    const outcome = await updateReservation(world.deps, {
      locationId: world.locationId,
      externalId: 'missing',
      input: aReservationInput({ externalId: 'also-missing' }),
    });

    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed' });
  });

  it('When a POST fails the body and existence, then the body answers (validation_failed, not duplicate_reservation)', async () => {
    const world = await aWorld();
    const first = await world.given();

    const outcome = await world.create({ ...first, status: 'seated', tableIds: [] });

    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed' });
  });

  it('When a POST repeats an externalId with an older updatedAt, then existence answers (duplicate_reservation, not stale)', async () => {
    const world = await aWorld();
    const first = await world.given();

    const outcome = await world.create({ ...first, updatedAt: first.updatedAt.plusMicros(-1n) });

    expect(outcome).toMatchObject({ ok: false, code: 'duplicate_reservation' });
  });

  it('When a PUT on an unknown externalId is old, then existence answers (unknown_reservation, not stale)', async () => {
    const world = await aWorld();
    await world.given({ externalId: 'known' });

    const outcome = await world.put(aReservationInput({ externalId: 'unknown' }));

    expect(outcome).toMatchObject({ ok: false, code: 'unknown_reservation' });
  });

  it('When a stale write names unknown tables, then staleness answers (stale, not unknown_table_id)', async () => {
    const world = await aWorld();
    const first = await world.given();

    const result = expectOk(await world.put({ ...first, tableIds: [UNKNOWN] }));

    expect(result.outcome).toBe('stale');
  });

  it('When a stale write names tables before the first publish, then staleness answers (stale, not floorplan_not_published)', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps);
    const input = aReservationInput();
    expectOk(await createReservation(deps, { locationId: location.id, input }));

    const result = await updateReservation(deps, {
      locationId: location.id,
      externalId: input.externalId,
      input: { ...input, tableIds: [UNKNOWN] },
    });

    expect(expectOk(result).outcome).toBe('stale');
  });

  it('When a stale write seats onto a taken table, then staleness answers (stale, not table_occupied)', async () => {
    const world = await aWorld();
    const first = await world.given();
    expectOk(
      await openWalkInOrder(world.deps, {
        locationId: world.locationId,
        tableIds: [world.tableIds[0]!],
        covers: 2,
      }),
    );

    const result = expectOk(await world.put({ ...first, status: 'seated', tableIds: [world.tableIds[0]!] }));

    expect(result.outcome).toBe('stale');
  });

  it('When a seat names a taken table and an unknown one, then table ids answer (unknown_table_id, not table_occupied)', async () => {
    const world = await aWorld();
    const first = await world.given();
    expectOk(
      await openWalkInOrder(world.deps, {
        locationId: world.locationId,
        tableIds: [world.tableIds[0]!],
        covers: 2,
      }),
    );

    const outcome = await world.put(
      later(first, { status: 'seated', tableIds: [world.tableIds[0]!, UNKNOWN] }),
    );

    expect(outcome).toMatchObject({ ok: false, code: 'unknown_table_id' });
  });

  it('When a seat names a taken table and an inactive one, then table ids answer (unknown_table_id, not table_occupied)', async () => {
    const world = await aWorld();
    const first = await world.given();
    const [taken, inactive] = world.tableIds as [string, string];
    expectOk(
      await openWalkInOrder(world.deps, { locationId: world.locationId, tableIds: [taken], covers: 2 }),
    );
    expectOk(
      await editTable(world.deps, {
        locationId: world.locationId,
        tableId: inactive,
        patch: { active: false },
      }),
    );
    expectOk(await publishFloorPlan(world.deps, { locationId: world.locationId }));

    const outcome = await world.put(later(first, { status: 'seated', tableIds: [taken, inactive] }));

    expect(outcome).toMatchObject({ ok: false, code: 'unknown_table_id' });
  });

  it('When a POST repeats an externalId naming unknown tables, then existence answers (duplicate_reservation, not unknown_table_id)', async () => {
    const world = await aWorld();
    const first = await world.given();

    const outcome = await world.create({ ...first, tableIds: [UNKNOWN] });

    expect(outcome).toMatchObject({ ok: false, code: 'duplicate_reservation' });
  });

  it('When a POST seats onto a taken table, then table_occupied answers and the reservation is not created', async () => {
    const world = await aWorld();
    expectOk(
      await openWalkInOrder(world.deps, {
        locationId: world.locationId,
        tableIds: [world.tableIds[0]!],
        covers: 2,
      }),
    );
    const input = aReservationInput({ status: 'seated', tableIds: [world.tableIds[0]!] });

    const outcome = await world.create(input);

    expect(outcome).toMatchObject({ ok: false, code: 'table_occupied' });
    expect(
      await world.deps.queries.reservations.findByExternalId(world.locationId, input.externalId),
    ).toBeNull();
  });
});
