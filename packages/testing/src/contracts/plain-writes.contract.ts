import {
  checkTableIds,
  decideReservationWrite,
  transactionalPlainWrites,
  type PlainReservationWrites,
  type Reservation,
  type ReservationInput,
} from '@pis/domain';
import fc from 'fast-check';
import { at, plusMillis } from '@pis/domain/test-support';
import { anOrder } from '@pis/domain/test-support';
import { aFullReservationInput, aReservation, aReservationInput } from '@pis/domain/test-support';
import { commit, useAdapters, type AdapterSet } from './adapter-set';
import { givenDraftTables, givenLocationRow, publishWorkingPlan } from './fixtures';

const RECEIVED = at('2026-11-21T18:30:00.654321Z');

/**
 * `PlainReservationWrites`: the one-statement path must decide exactly what
 * `decideReservationWrite` decides, store it, and stay right under concurrent writes.
 * Adapters without their own implementation are checked through `transactionalPlainWrites`.
 */
export function describePlainWritesContract(
  name: string,
  make: () => Promise<AdapterSet & { plainWrites?: PlainReservationWrites }>,
): void {
  describe(`${name}: plain reservation writes contract`, () => {
    const adapters = useAdapters(make);
    const writes = () => adapters().plainWrites ?? transactionalPlainWrites(adapters().uow);
    const stored = (r: { locationId: string; externalId: string }) =>
      adapters().queries.reservations.findByExternalId(r.locationId, r.externalId);

    async function givenStored(overrides: Partial<Reservation> = {}): Promise<Reservation> {
      const location = await givenLocationRow(adapters().uow);
      const reservation = aReservation(location.id, overrides);
      await commit(adapters().uow, (tx) => tx.reservations.insert(reservation));
      return reservation;
    }

    /** What the domain decides for `input` over `current`, as the adapter should store it. */
    function decided(current: Reservation, input: ReservationInput): Reservation {
      const decision = decideReservationWrite(current, input, {
        now: RECEIVED,
        newId: current.id,
        locationId: current.locationId,
      });
      if (decision.kind !== 'apply') throw new Error('expected an applied write');
      return decision.next;
    }

    it('When a reservation is created, then it is stored as given, and a second create of its externalId is a duplicate', async () => {
      const location = await givenLocationRow(adapters().uow);
      const reservation = aReservation(location.id, { ...aFullReservationInput(), receivedAt: RECEIVED });

      expect(await writes().create(reservation)).toBe('inserted');
      expect(await writes().create({ ...reservation, id: aReservation(location.id).id })).toBe('duplicate');
      expect(await stored(reservation)).toEqual(reservation);
    });

    it('When the location holds no such reservation, then the update is missing and nothing is stored', async () => {
      const location = await givenLocationRow(adapters().uow);
      const input = aReservationInput();

      expect(await writes().update(location.id, input, RECEIVED)).toEqual({ kind: 'missing' });
      expect(await stored({ locationId: location.id, externalId: input.externalId })).toBeNull();
    });

    it("When another location's reservation has the externalId, then the update is missing and it is untouched", async () => {
      const theirs = await givenStored();
      const mine = await givenLocationRow(adapters().uow);
      const input = aReservationInput({
        externalId: theirs.externalId,
        updatedAt: at('2027-01-01T00:00:00Z'),
      });

      expect(await writes().update(mine.id, input, RECEIVED)).toEqual({ kind: 'missing' });
      expect(await stored(theirs)).toEqual(theirs);
    });

    it('When a newer full write arrives, then every request field is applied, id and links kept, receivedAt set', async () => {
      const { uow } = adapters();
      const { location, tableIds } = await givenDraftTables(uow, 1);
      const order = anOrder(location.id, tableIds, {
        status: 'closed',
        closedAt: at('2026-11-21T21:00:00Z'),
      });
      await commit(uow, (tx) => tx.orders.insert(order));
      const current = aReservation(location.id, { linkedOrderId: order.id, status: 'seated', tableIds });
      await commit(uow, (tx) => tx.reservations.insert(current));
      const input = aFullReservationInput({
        externalId: current.externalId,
        status: 'finished',
        updatedAt: plusMillis(current.updatedAt, 1),
      });

      const answer = await writes().update(location.id, input, RECEIVED);

      expect(answer).toEqual({ kind: 'applied', reservation: decided(current, input) });
      expect(await stored(current)).toEqual(decided(current, input));
    });

    it.each([
      ['older', -1],
      ['equal', 0],
    ])(
      'When a write with an %s updatedAt arrives, then it is stale and the stored reservation is returned unchanged',
      async (_label, deltaMs) => {
        const current = await givenStored();
        const input = aFullReservationInput({
          externalId: current.externalId,
          updatedAt: plusMillis(current.updatedAt, deltaMs),
        });

        expect(await writes().update(current.locationId, input, RECEIVED)).toEqual({
          kind: 'stale',
          reservation: current,
        });
        expect(await stored(current)).toEqual(current);
      },
    );

    it('When a write is one microsecond newer, then it applies', async () => {
      const current = await givenStored({ updatedAt: at('2026-11-21T10:00:00.000001Z') });
      const input = aReservationInput({
        externalId: current.externalId,
        updatedAt: at('2026-11-21T10:00:00.000002Z'),
      });

      expect((await writes().update(current.locationId, input, RECEIVED)).kind).toBe('applied');
    });

    const EARLIER = '2026-11-21T18:01:00.000007Z';
    it.each([
      ['arrived', null, 'the time it was received'],
      ['confirmed', null, null],
      ['cancelled', EARLIER, EARLIER],
      ['arrived', EARLIER, EARLIER],
    ] as const)(
      'When a %s write lands on arrivedAt %s, then arrivedAt becomes %s',
      async (status, before, after) => {
        const current = await givenStored({ arrivedAt: before === null ? null : at(before) });
        const input = aReservationInput({
          externalId: current.externalId,
          status,
          updatedAt: plusMillis(current.updatedAt, 5),
        });
        const expected = after === null ? null : after === EARLIER ? at(EARLIER) : RECEIVED;

        const answer = await writes().update(current.locationId, input, RECEIVED);

        expect(answer.kind === 'applied' && answer.reservation.arrivedAt).toEqual(expected);
        expect((await stored(current))?.arrivedAt).toEqual(expected);
      },
    );

    /** A location whose published plan holds `tables` tables, the last one inactive, and a reservation there. */
    async function givenPublishedTables(tables: number, publish = true) {
      const { uow } = adapters();
      const { location, room, tableIds } = await givenDraftTables(uow, tables);
      const inactive = { ...room.tables[tables - 1]!, active: false };
      await commit(uow, (tx) => tx.floorPlans.saveTable(location.id, inactive));
      if (publish) await commit(uow, (tx) => publishWorkingPlan(tx, location.id));
      const current = aReservation(location.id, { status: 'booked', tableIds: [] });
      await commit(uow, (tx) => tx.reservations.insert(current));
      return { current, active: tableIds.slice(0, -1), inactive: inactive.id };
    }

    it.each(['booked', 'confirmed', 'arrived', 'finished', 'no_show', 'cancelled'] as const)(
      'When a newer %s write names active tables of the published plan, then it applies with them (a plan, no order)',
      async (status) => {
        const { current, active } = await givenPublishedTables(3);
        const input = aFullReservationInput({
          externalId: current.externalId,
          status,
          tableIds: [active[1]!, active[0]!],
          updatedAt: plusMillis(current.updatedAt, 1),
        });

        const answer = await writes().update(current.locationId, input, RECEIVED);

        expect(answer).toEqual({ kind: 'applied', reservation: decided(current, input) });
        expect(await stored(current)).toEqual(decided(current, input));
      },
    );

    it.each([
      ['an unknown uuid', 'unknown'],
      ['a table inactive in the published plan', 'inactive'],
      ['an id that is not a uuid', 'not-a-uuid'],
      ['an upper-case spelling of an active id', 'upper'],
    ])(
      'When a newer write names %s, then tables are refused as checkTableIds refuses them, and nothing is applied',
      async (_label, kind) => {
        const { current, active, inactive } = await givenPublishedTables(3);
        const odd = {
          unknown: '0195a6c0-0000-7000-8000-000000000000',
          inactive,
          'not-a-uuid': 'T1',
          upper: active[1]!.toUpperCase(),
        }[kind]!;
        const input = aFullReservationInput({
          externalId: current.externalId,
          status: 'confirmed',
          tableIds: [active[0]!, odd],
          updatedAt: plusMillis(current.updatedAt, 1),
        });

        const answer = await writes().update(current.locationId, input, RECEIVED);

        expect(answer.kind).toBe('tables_refused');
        const published = answer.kind === 'tables_refused' ? answer.published : null;
        expect(published?.version).toBe(1);
        const check = checkTableIds(published, input.tableIds);
        expect(check.ok === false && check.code).toBe('unknown_table_id');
        expect(check.ok === false && check.message).toContain(odd);
        expect(check.ok === false && check.message).not.toContain(active[0]!);
        expect(await stored(current)).toEqual(current);
      },
    );

    it('When a newer write names tables before the first publish, then tables are refused with no published plan', async () => {
      const { current, active } = await givenPublishedTables(2, false);
      const input = aReservationInput({
        externalId: current.externalId,
        tableIds: active,
        updatedAt: plusMillis(current.updatedAt, 1),
      });

      expect(await writes().update(current.locationId, input, RECEIVED)).toEqual({
        kind: 'tables_refused',
        published: null,
      });
      expect(await stored(current)).toEqual(current);
    });

    it('When a stale write names unusable tables, then it is stale: staleness answers before tables', async () => {
      const { current, inactive } = await givenPublishedTables(2);
      const input = aReservationInput({
        externalId: current.externalId,
        tableIds: [inactive],
        updatedAt: current.updatedAt,
      });

      expect(await writes().update(current.locationId, input, RECEIVED)).toEqual({
        kind: 'stale',
        reservation: current,
      });
    });

    it("When a write names another location's published table, then tables are refused", async () => {
      const theirs = await givenPublishedTables(2);
      const { current } = await givenPublishedTables(2);
      const input = aReservationInput({
        externalId: current.externalId,
        tableIds: [theirs.active[0]!],
        updatedAt: plusMillis(current.updatedAt, 1),
      });

      expect((await writes().update(current.locationId, input, RECEIVED)).kind).toBe('tables_refused');
      expect(await stored(current)).toEqual(current);
    });

    it('When 30 writes with shuffled updatedAt race on one reservation, then the newest is stored and each answer is applied or stale', async () => {
      const current = await givenStored({ updatedAt: at('2026-11-01T00:00:00Z') });
      const inputs = fc
        .sample(fc.shuffledSubarray([...Array(30).keys()], { minLength: 30 }), { numRuns: 1, seed: 7 })[0]!
        .map((minute) =>
          aReservationInput({
            externalId: current.externalId,
            covers: minute + 1,
            updatedAt: plusMillis(at('2026-11-20T12:00:00Z'), minute * 60_000),
          }),
        );

      const answers = await Promise.all(
        inputs.map((input) => writes().update(current.locationId, input, RECEIVED)),
      );

      expect(answers.every((a) => a.kind === 'applied' || a.kind === 'stale')).toBe(true);
      expect(answers.filter((a) => a.kind === 'applied').length).toBeGreaterThanOrEqual(1);
      const final = await stored(current);
      expect(final?.covers).toBe(30);
      expect(final?.updatedAt).toEqual(plusMillis(at('2026-11-20T12:00:00Z'), 29 * 60_000));
    });

    it('When any sequence of plain writes is delivered, then what is stored is what the domain decides step by step', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              minute: fc.integer({ min: 0, max: 8 }),
              status: fc.constantFrom(
                'booked',
                'confirmed',
                'arrived',
                'finished',
                'no_show',
                'cancelled' as const,
              ),
              covers: fc.integer({ min: 1, max: 12 }),
            }),
            { minLength: 1, maxLength: 6 },
          ),
          async (writesToDeliver) => {
            let expected = await givenStored({ updatedAt: at('2026-11-20T11:59:00Z') });
            for (const w of writesToDeliver) {
              const input = aReservationInput({
                externalId: expected.externalId,
                status: w.status,
                covers: w.covers,
                updatedAt: plusMillis(at('2026-11-20T12:00:00Z'), w.minute * 60_000),
              });
              const decision = decideReservationWrite(expected, input, {
                now: RECEIVED,
                newId: expected.id,
                locationId: expected.locationId,
              });
              const answer = await writes().update(expected.locationId, input, RECEIVED);
              expect(answer.kind).toBe(decision.kind === 'apply' ? 'applied' : 'stale');
              if (decision.kind === 'apply') expected = decision.next;
            }
            expect(await stored(expected)).toEqual(expected);
          },
        ),
        { numRuns: 15 },
      );
    });
  });
}
