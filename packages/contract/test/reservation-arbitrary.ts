import fc from 'fast-check';
import type { ReservationRequest } from '../src/wire-types';

const MAX = 2_147_483_647;
const text = (min: number, max: number) => fc.string({ minLength: min, maxLength: max });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const int = (min: number, max = MAX) => fc.integer({ min, max });

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** A millisecond-precise instant written in one of the accepted forms (Z or an offset, with or without seconds). */
export const dateTimeText = fc
  .record({
    millis: fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }),
    offsetMinutes: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    form: fc.constantFrom('Z', 'offset', 'minutes-only'),
  })
  .map(({ millis, offsetMinutes, form }) => {
    if (form === 'Z') return new Date(millis).toISOString();
    const wholeMinutes = form === 'minutes-only' ? millis - (millis % 60_000) : millis;
    const local = new Date(wholeMinutes + offsetMinutes * 60_000).toISOString().slice(0, 23);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const offset = `${sign}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
    return `${form === 'minutes-only' ? local.slice(0, 16) : local}${offset}`;
  });

const recentVisit = fc.record(
  {
    occurredAt: dateTimeText,
    tableLabel: nullable(text(1, 40)),
    covers: nullable(int(1)),
    spendMinor: nullable(int(0)),
    outcome: fc.constantFrom('completed' as const, 'in_progress' as const, 'no_show' as const),
  },
  { requiredKeys: ['occurredAt', 'outcome'] },
);

const guest = fc.record(
  {
    name: nullable(text(1, 120)),
    phone: nullable(text(1, 40)),
    email: nullable(text(1, 254)),
    vip: fc.boolean(),
    firstVisit: fc.boolean(),
    visitCount: nullable(int(0)),
    occasion: nullable(text(1, 120)),
    allergies: nullable(text(1, 500)),
    tags: fc.array(text(1, 40), { maxLength: 20 }),
    memberSince: nullable(dateTimeText),
    averageSpendMinor: nullable(int(0)),
    noShowCount: nullable(int(0)),
    recentVisits: fc.array(recentVisit, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

const prepayment = fc.record(
  {
    prepaidMinor: int(0),
    currency: text(3, 3),
    items: fc.array(fc.record({ label: text(1, 120), amountMinor: int(0) }), { maxLength: 3 }),
    imprint: nullable(
      fc.record({
        amountMinor: int(1),
        status: fc.constantFrom('active' as const, 'released' as const, 'charged' as const),
      }),
    ),
  },
  { requiredKeys: ['prepaidMinor', 'currency'] },
);

/** Valid reservation request bodies, optional fields present or absent. */
export const reservationRequest: fc.Arbitrary<ReservationRequest> = fc.record(
  {
    externalId: text(1, 128),
    status: fc.constantFrom(
      'booked',
      'confirmed',
      'arrived',
      'seated',
      'finished',
      'no_show',
      'cancelled' as const,
    ),
    partyName: nullable(text(1, 120)),
    covers: int(1),
    startsAt: dateTimeText,
    endsAt: nullable(dateTimeText),
    tableIds: fc.uniqueArray(text(1, 36), { maxLength: 20 }),
    guest: nullable(guest),
    internalNote: nullable(text(1, 500)),
    prepayment: nullable(prepayment),
    posOrderId: nullable(text(1, 128)),
    updatedAt: dateTimeText,
  },
  { requiredKeys: ['externalId', 'status', 'covers', 'startsAt', 'updatedAt'] },
) as fc.Arbitrary<ReservationRequest>;
