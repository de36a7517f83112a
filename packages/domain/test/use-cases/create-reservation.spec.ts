import {
  createReservation,
  editTable,
  publishFloorPlan,
  RESERVATION_STATUSES,
  type ReservationStatus,
} from '../../src';
import { aFullReservationInput, aReservationInput } from '../builders';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenLocation } from '../scenarios/published-location';
import { aWorld, expectOk } from './use-case-world';

describe('createReservation (POST)', () => {
  it('When a valid reservation is created, then it is applied and stored with the service fields set', async () => {
    const world = await aWorld();
    const input = aFullReservationInput();

    const result = expectOk(await world.create(input));

    expect(result.outcome).toBe('applied');
    expect(result.reservation).toStrictEqual({
      ...input,
      id: expect.any(String),
      locationId: world.locationId,
      linkedOrderId: null,
      arrivedAt: null,
      receivedAt: world.clock.now(),
    });
    expect(
      await world.deps.queries.reservations.findByExternalId(world.locationId, input.externalId),
    ).toStrictEqual(result.reservation);
  });

  it.each(
    RESERVATION_STATUSES.map((status): [ReservationStatus, boolean] => [
      status,
      status === 'arrived' || status === 'seated',
    ]),
  )('When a reservation is created with status %s, then arrivedAt is set: %s', async (status, arrived) => {
    const world = await aWorld();

    const result = expectOk(
      await world.create(aReservationInput({ status, tableIds: [world.tableIds[0]!] })),
    );

    expect(result.reservation.arrivedAt).toEqual(arrived ? world.clock.now() : null);
  });

  it('When the location already holds the externalId, then 409 duplicate_reservation and the stored one stays', async () => {
    const world = await aWorld();
    const first = await world.given({ covers: 2 });
    const stored = await world.deps.queries.reservations.findByExternalId(world.locationId, first.externalId);

    const outcome = await world.create({
      ...first,
      covers: 8,
      updatedAt: first.updatedAt.plusMicros(1_000_000n),
    });

    expect(outcome).toMatchObject({ ok: false, code: 'duplicate_reservation', occupiedBy: null });
    expect(
      await world.deps.queries.reservations.findByExternalId(world.locationId, first.externalId),
    ).toStrictEqual(stored);
  });

  it('When two locations create the same externalId, then both are applied and each keeps its own', async () => {
    const { deps } = createInMemoryDeps();
    const a = await givenLocation(deps);
    const b = await givenLocation(deps);
    const input = aReservationInput({ externalId: 'OT-1' });

    const answers = [
      await createReservation(deps, { locationId: a.id, input: { ...input, covers: 2 } }),
      await createReservation(deps, { locationId: b.id, input: { ...input, covers: 6 } }),
    ];

    expect(answers.map((o) => o.ok)).toEqual([true, true]);
    expect((await deps.queries.reservations.findByExternalId(a.id, 'OT-1'))?.covers).toBe(2);
    expect((await deps.queries.reservations.findByExternalId(b.id, 'OT-1'))?.covers).toBe(6);
  });

  it('When a reservation is created seated without tables, then 422 validation_failed and nothing is stored', async () => {
    const world = await aWorld();
    const input = aReservationInput({ status: 'seated', tableIds: [] });

    const outcome = await world.create(input);

    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed', details: [{ path: '/tableIds' }] });
    expect(world.store.reservations(world.locationId)).toEqual([]);
  });

  it('When tableIds name one table twice, then 422 validation_failed points at the repetition', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];

    const outcome = await world.create(aReservationInput({ tableIds: [t1, t2, t1] }));

    expect(outcome).toMatchObject({
      ok: false,
      code: 'validation_failed',
      details: [{ path: '/tableIds/2' }],
    });
  });

  it('When tableIds are given before the first publish, then 409 floorplan_not_published and nothing is stored', async () => {
    const { deps, store } = createInMemoryDeps();
    const location = await givenLocation(deps);

    const outcome = await createReservation(deps, {
      locationId: location.id,
      input: aReservationInput({ tableIds: ['00000000-0000-4000-8000-00000000ffff'] }),
    });

    expect(outcome).toMatchObject({ ok: false, code: 'floorplan_not_published' });
    expect(store.reservations(location.id)).toEqual([]);
  });

  it('When no tableIds are given before the first publish, then the reservation is applied', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps);

    const outcome = await createReservation(deps, { locationId: location.id, input: aReservationInput() });

    expect(outcome.ok).toBe(true);
  });

  it('When a table id is unknown, then 422 unknown_table_id names it and nothing is stored', async () => {
    const world = await aWorld();
    const unknown = '00000000-0000-4000-8000-0000000fffff';

    const outcome = await world.create(aReservationInput({ tableIds: [world.tableIds[0]!, unknown] }));

    expect(outcome).toMatchObject({
      ok: false,
      code: 'unknown_table_id',
      details: [{ path: '/tableIds/1' }],
    });
    expect(!outcome.ok && outcome.message).toContain(unknown);
    expect(world.store.reservations(world.locationId)).toEqual([]);
  });

  it('When a table was deactivated and the plan republished, then 422 unknown_table_id names it', async () => {
    const world = await aWorld();
    const inactive = world.tableIds[1]!;
    expectOk(
      await editTable(world.deps, {
        locationId: world.locationId,
        tableId: inactive,
        patch: { active: false },
      }),
    );
    expectOk(await publishFloorPlan(world.deps, { locationId: world.locationId }));

    const outcome = await world.create(aReservationInput({ tableIds: [inactive] }));

    expect(outcome).toMatchObject({ ok: false, code: 'unknown_table_id' });
    expect(!outcome.ok && outcome.message).toContain(inactive);
  });

  it('When a table was deactivated but not yet republished, then it is still accepted (the published plan rules)', async () => {
    const world = await aWorld();
    const table = world.tableIds[1]!;
    expectOk(
      await editTable(world.deps, { locationId: world.locationId, tableId: table, patch: { active: false } }),
    );

    const outcome = await world.create(aReservationInput({ tableIds: [table] }));

    expect(outcome.ok).toBe(true);
  });

  it('When a reservation is created seated, then an order opens on its tables, linkedOrderId is set and each table is occupied', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const mark = world.mark();

    const result = expectOk(
      await world.create(
        aReservationInput({ externalId: 'R-seat', status: 'seated', covers: 5, tableIds: [t1, t2] }),
      ),
    );

    const order = await world.deps.queries.orders.findById(
      world.locationId,
      result.reservation.linkedOrderId!,
    );
    expect(order).toMatchObject({
      status: 'open',
      tableIds: [t1, t2],
      covers: 5,
      reservationExternalId: 'R-seat',
      currency: 'EUR',
    });
    const now = world.clock.now().toIso();
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual([
      [
        'table.occupied',
        { tableId: t1, orderId: order!.id, reservationExternalId: 'R-seat', covers: 5, occurredAt: now },
      ],
      [
        'table.occupied',
        { tableId: t2, orderId: order!.id, reservationExternalId: 'R-seat', covers: 5, occurredAt: now },
      ],
    ]);
  });
});
