import fc from 'fast-check';
import { RESERVATION_STATUSES, type ReservationInput } from '../../src';
import { at } from '../builders';
import { aReservationInput } from '../builders';
import { aWorld, expectOk } from './use-case-world';

const TABLES = 4;
const base = at('2026-11-20T10:00:00Z');

/** The provider's fields of a write, as they must end up stored. */
const providerFields = (r: ReservationInput): ReservationInput => ({
  externalId: r.externalId,
  status: r.status,
  partyName: r.partyName,
  covers: r.covers,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
  tableIds: r.tableIds,
  guest: r.guest,
  internalNote: r.internalNote,
  prepayment: r.prepayment,
  posOrderId: r.posOrderId,
  updatedAt: r.updatedAt,
});

/** A write's content without its table ids (those come from the plan) and its updatedAt. */
const writeShape = fc.record({
  status: fc.constantFrom(...RESERVATION_STATUSES),
  covers: fc.integer({ min: 1, max: 12 }),
  partyName: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null }),
  tables: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
  withTables: fc.boolean(),
});

/** Distinct updatedAt offsets (microseconds), so exactly one write is the newest. */
const writesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 6 })
  .chain((offsets) =>
    fc.tuple(
      fc.constant(offsets),
      fc.array(writeShape, { minLength: offsets.length, maxLength: offsets.length }),
    ),
  )
  .chain(([offsets, shapes]) =>
    fc.tuple(
      fc.constant(offsets.map((offset, i) => ({ offset, shape: shapes[i]! }))),
      fc.array(fc.nat({ max: offsets.length - 1 }), { maxLength: 6 }),
    ),
  )
  .chain(([writes, duplicates]) => {
    const deliveries = [...writes.map((_, i) => i), ...duplicates];
    return fc.tuple(
      fc.constant(writes),
      fc.shuffledSubarray(deliveries, { minLength: deliveries.length, maxLength: deliveries.length }),
      fc.boolean(),
    );
  });

describe('last-write-wins property (docs/reference/provider-api.md#last-write-wins)', () => {
  it('When any set of writes is delivered in any order with any duplicates, then the stored reservation is the write with the greatest updatedAt', async () => {
    await fc.assert(
      fc.asyncProperty(writesArb, async ([writes, order, concurrently]) => {
        const world = await aWorld(TABLES);
        const inputs = writes.map(({ offset, shape }) =>
          aReservationInput({
            externalId: 'R-lww',
            status: shape.status,
            covers: shape.covers,
            partyName: shape.partyName,
            tableIds:
              shape.withTables || shape.status === 'seated'
                ? shape.tables.map((t) => world.tableIds[t]!)
                : [],
            updatedAt: base.plusMicros(BigInt(offset)),
          }),
        );
        const delivered = order.map((i) => inputs[i]!);

        expectOk(await world.create(delivered[0]!));
        const rest = delivered.slice(1);
        const outcomes = concurrently
          ? await Promise.all(rest.map((input) => world.put(input)))
          : await rest.reduce<Promise<unknown[]>>(
              async (done, input) => [...(await done), await world.put(input)],
              Promise.resolve([]),
            );

        outcomes.forEach((outcome) => expect(outcome).toMatchObject({ ok: true }));
        const newest = inputs.reduce((a, b) => (b.updatedAt.isAfter(a.updatedAt) ? b : a));
        const stored = await world.deps.queries.reservations.findByExternalId(world.locationId, 'R-lww');
        expect(providerFields(stored!)).toStrictEqual(providerFields(newest));
      }),
      { numRuns: 150 },
    );
  });
});
