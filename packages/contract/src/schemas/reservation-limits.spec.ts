import { fullReservationBody, minimalReservationBody } from '../../test/sample-bodies';
import { expectRefusedAt, limitCases, list, str, withValue, type LimitRow } from '../../test/limit-rows';
import { createValidator } from '../validation/validator';
import { MAX_INT32 } from './primitives';

const validator = createValidator();

const textRow = (pointer: string, min: number, max: number): LimitRow => ({
  pointer,
  valid: [str(min), str(max)],
  invalid: [str(min - 1), str(max + 1), 42],
});
const intRow = (pointer: string, min: number): LimitRow => ({
  pointer,
  valid: [min, MAX_INT32],
  invalid: [min - 1, MAX_INT32 + 1, 1.5, '1'],
});
const countRow = (pointer: string, max: number, item: (i: number) => unknown): LimitRow => ({
  pointer,
  valid: [[], list(max, item)],
  invalid: [list(max + 1, item)],
});
const visit = () => ({ occurredAt: '2026-10-01T20:15Z', outcome: 'completed' });

/**
 * The bounds of docs/reference/provider-api.md#reservation-fields, both sides of every bound (plus
 * the wrong type).
 */
const rows: LimitRow[] = [
  textRow('/externalId', 1, 128),
  textRow('/partyName', 1, 120),
  textRow('/guest/name', 1, 120),
  textRow('/guest/occasion', 1, 120),
  textRow('/prepayment/items/0/label', 1, 120),
  textRow('/guest/phone', 1, 40),
  textRow('/guest/email', 1, 254),
  textRow('/guest/allergies', 1, 500),
  textRow('/internalNote', 1, 500),
  textRow('/posOrderId', 1, 128),
  countRow('/guest/tags', 20, (i) => `tag-${i}`),
  textRow('/guest/tags/0', 1, 40),
  countRow('/guest/recentVisits', 20, visit),
  textRow('/guest/recentVisits/0/tableLabel', 1, 40),
  countRow('/tableIds', 20, (i) => `table-${i}`),
  { pointer: '/tableIds/0', valid: ['t', str(36)], invalid: ['', 7] },
  countRow('/prepayment/items', 50, (i) => ({ label: `item ${i}`, amountMinor: i })),
  { pointer: '/prepayment/currency', valid: ['EUR', 'usd'], invalid: ['EU', 'EURO', ''] },
  intRow('/covers', 1),
  intRow('/guest/recentVisits/0/covers', 1),
  intRow('/guest/visitCount', 0),
  intRow('/guest/averageSpendMinor', 0),
  intRow('/guest/noShowCount', 0),
  intRow('/guest/recentVisits/0/spendMinor', 0),
  intRow('/prepayment/prepaidMinor', 0),
  intRow('/prepayment/items/0/amountMinor', 0),
  intRow('/prepayment/imprint/amountMinor', 1),
  { pointer: '/status', valid: ['booked', 'no_show', 'cancelled'], invalid: ['BOOKED', 'noshow', null] },
  { pointer: '/prepayment/imprint/status', valid: ['active', 'released', 'charged'], invalid: ['captured'] },
  { pointer: '/guest/recentVisits/0/outcome', valid: ['in_progress'], invalid: ['done'] },
  { pointer: '/guest/vip', valid: [true, false], invalid: [null, 'true', 1] },
];

const { accepted, refused } = limitCases(rows);

describe('Reservation request limits', () => {
  it('When the sample full body is sent, then it is accepted', () => {
    expect(validator.reservationRequest(fullReservationBody())).toEqual({
      ok: true,
      value: fullReservationBody(),
    });
  });

  it.each(accepted)('When $pointer is $shown, then the body is accepted', ({ pointer, value }) => {
    const result = validator.reservationRequest(withValue(fullReservationBody(), pointer, value));
    expect(result).toMatchObject({ ok: true });
  });

  it.each(refused)('When $pointer is $shown, then it is refused at $pointer', ({ pointer, value }) => {
    expectRefusedAt(validator.reservationRequest(withValue(fullReservationBody(), pointer, value)), pointer);
  });

  it.each(['externalId', 'status', 'covers', 'startsAt', 'updatedAt'])(
    'When the required %s is missing, then it is refused with "is required"',
    (field) => {
      const result = validator.reservationRequest(
        withValue(minimalReservationBody(), `/${field}`, undefined),
      );
      expect(result).toEqual({ ok: false, details: [{ path: `/${field}`, message: 'is required' }] });
    },
  );

  it.each(['partyName', 'endsAt', 'guest', 'internalNote', 'prepayment', 'posOrderId'])(
    'When the nullable %s is null, then the body is accepted',
    (field) => {
      expect(validator.reservationRequest({ ...minimalReservationBody(), [field]: null })).toMatchObject({
        ok: true,
      });
    },
  );

  it('When tableIds repeats an id, then the repetition is refused at its index', () => {
    const result = validator.reservationRequest({ ...minimalReservationBody(), tableIds: ['a', 'b', 'a'] });
    expect(result).toEqual({ ok: false, details: [{ path: '/tableIds/2', message: 'duplicates item 0' }] });
  });

  it('When several fields break their limits, then every one is reported (allErrors)', () => {
    const body = { ...minimalReservationBody(), externalId: '', covers: 0, partyName: str(121) };
    const result = validator.reservationRequest(body);
    expect(result.ok ? [] : result.details.map((d) => d.path).sort()).toEqual([
      '/covers',
      '/externalId',
      '/partyName',
    ]);
  });

  it('When a limit is broken, then the message states the bound', () => {
    const result = validator.reservationRequest({ ...minimalReservationBody(), externalId: str(129) });
    expect(result).toEqual({
      ok: false,
      details: [{ path: '/externalId', message: 'must be at most 128 characters long' }],
    });
  });
});
