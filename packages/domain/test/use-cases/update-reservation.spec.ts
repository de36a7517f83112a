import { Instant, updateReservation, type ReservationInput, type ReservationStatus } from '../../src';
import { at } from '../builders';
import { aFullReservationInput, aReservationInput } from '../builders';
import { aWorld, expectOk, later } from './use-case-world';

describe('updateReservation (PUT): last-write-wins', () => {
  it('When the reservation does not exist, then 404 unknown_reservation and nothing is created', async () => {
    const world = await aWorld();

    const outcome = await world.put(aReservationInput({ externalId: 'never-created' }));

    expect(outcome).toMatchObject({ ok: false, code: 'unknown_reservation', occupiedBy: null });
    expect(world.store.reservations(world.locationId)).toEqual([]);
  });

  it('When the write is newer, then every provider field is replaced; id and linkedOrderId stay; receivedAt is now', async () => {
    const world = await aWorld();
    const first = await world.given();
    const created = (await world.deps.queries.reservations.findByExternalId(
      world.locationId,
      first.externalId,
    ))!;
    world.clock.advance(60_000);
    const full = aFullReservationInput({
      externalId: first.externalId,
      updatedAt: at('2026-11-20T11:00:00.000001Z'),
    });

    const result = expectOk(await world.put(full));

    expect(result.outcome).toBe('applied');
    expect(result.reservation).toStrictEqual({
      ...full,
      id: created.id,
      locationId: world.locationId,
      linkedOrderId: null,
      arrivedAt: null,
      receivedAt: world.clock.now(),
    });
  });

  it('When a filled reservation is rewritten with nulls and empty arrays, then they replace the old values (full body, no patch)', async () => {
    const world = await aWorld();
    const full = await world.given(aFullReservationInput());

    const result = expectOk(
      await world.put(later(aReservationInput({ externalId: full.externalId, updatedAt: full.updatedAt }))),
    );

    expect(result.reservation).toMatchObject({
      guest: null,
      prepayment: null,
      partyName: null,
      endsAt: null,
      internalNote: null,
      posOrderId: null,
    });
  });

  it.each<[string, (stored: Instant) => Instant]>([
    ['older', (stored) => stored.plusMicros(-1n)],
    ['equal', (stored) => stored],
    ['equal below the microsecond', (stored) => Instant.parse(`${stored.toIsoMicros().slice(0, -1)}9Z`)!],
  ])(
    'When the write is %s by updatedAt, then it is stale: the stored reservation answers and nothing changes',
    async (_, updatedAt) => {
      const world = await aWorld();
      const first = await world.given({ covers: 2, updatedAt: at('2026-11-20T10:00:00.123456Z') });
      const stored = (await world.deps.queries.reservations.findByExternalId(
        world.locationId,
        first.externalId,
      ))!;
      world.clock.advance(1000);
      const mark = world.mark();

      const result = expectOk(
        await world.put({ ...first, covers: 7, status: 'cancelled', updatedAt: updatedAt(first.updatedAt) }),
      );

      expect(result).toStrictEqual({ outcome: 'stale', reservation: stored });
      expect(
        await world.deps.queries.reservations.findByExternalId(world.locationId, first.externalId),
      ).toStrictEqual(stored);
      expect(world.eventsFrom(mark)).toEqual([]);
    },
  );

  it('When an applied write is retried blindly, then the retry is stale and changes nothing', async () => {
    const world = await aWorld();
    const first = await world.given();
    const write = later(first, { covers: 3 });
    const applied = expectOk(await world.put(write));
    world.clock.advance(5000);

    const retry = expectOk(await world.put(write));

    expect(retry).toStrictEqual({ outcome: 'stale', reservation: applied.reservation });
  });

  it('When the body externalId differs from the path, then 422 validation_failed', async () => {
    const world = await aWorld();
    const first = await world.given();

    const outcome = await updateReservation(world.deps, {
      locationId: world.locationId,
      externalId: first.externalId,
      input: later(first, { externalId: 'other-id' }),
    });

    expect(outcome).toMatchObject({
      ok: false,
      code: 'validation_failed',
      details: [{ path: '/externalId' }],
    });
  });

  it('When writes apply, then receivedAt follows the service clock each time; a stale write leaves it', async () => {
    const world = await aWorld();
    const first = await world.given();
    world.clock.advance(1000);
    const second = later(first, { covers: 3 });
    const afterSecond = expectOk(await world.put(second)).reservation.receivedAt;
    world.clock.advance(1000);

    const stale = expectOk(await world.put(first)).reservation.receivedAt;

    expect(afterSecond).toEqual(world.clock.now().plusMicros(-1_000_000n));
    expect(stale).toEqual(afterSecond);
  });

  describe('arrivedAt: set the first time an applied write is arrived or seated, never cleared', () => {
    it.each<[string, ReservationStatus[], number | null]>([
      ['booked, confirmed', ['booked', 'confirmed'], null],
      ['booked, arrived', ['booked', 'arrived'], 1],
      ['booked, seated', ['booked', 'seated'], 1],
      ['arrived, seated', ['arrived', 'seated'], 0],
      ['arrived, arrived', ['arrived', 'arrived'], 0],
      ['arrived, booked', ['arrived', 'booked'], 0],
      ['arrived, cancelled, booked', ['arrived', 'cancelled', 'booked'], 0],
      ['booked, no_show, arrived, finished', ['booked', 'no_show', 'arrived', 'finished'], 2],
    ])(
      'When the statuses are %s, then arrivedAt is the time of write %p',
      async (_, statuses, arrivedWrite) => {
        const world = await aWorld();
        const times: Instant[] = [];
        let input: ReservationInput | null = null;
        for (const status of statuses) {
          world.clock.advance(60_000);
          times.push(world.clock.now());
          const tableIds = [world.tableIds[0]!];
          input =
            input === null ? await world.given({ status, tableIds }) : later(input, { status, tableIds });
          if (times.length > 1) expectOk(await world.put(input));
        }

        const stored = await world.deps.queries.reservations.findByExternalId(
          world.locationId,
          input!.externalId,
        );

        expect(stored?.arrivedAt).toEqual(arrivedWrite === null ? null : times[arrivedWrite]);
      },
    );

    it('When a stale write says arrived, then arrivedAt stays unset', async () => {
      const world = await aWorld();
      const first = await world.given({ status: 'booked' });

      const result = expectOk(await world.put({ ...first, status: 'arrived' }));

      expect(result.reservation.arrivedAt).toBeNull();
    });
  });
});
