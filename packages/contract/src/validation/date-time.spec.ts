import { minimalReservationBody } from '../../test/sample-bodies';
import { createValidator } from './validator';

const validator = createValidator();
const startsAt = (value: unknown) =>
  validator.reservationRequest({ ...minimalReservationBody(), startsAt: value });

/** docs/reference/limits-and-formats.md#date-times and decision 0002. */
describe('date-time format', () => {
  it.each([
    ['without seconds', '2026-11-21T19:00Z'],
    ['with seconds', '2026-11-21T19:00:00Z'],
    ['with a millisecond fraction', '2026-11-21T19:00:00.123Z'],
    ['with one fraction digit', '2026-11-21T19:00:00.5Z'],
    ['with nine fraction digits', '2026-11-21T19:00:00.123456789Z'],
    ['with a positive offset', '2026-11-21T20:00+01:00'],
    ['with a negative offset and seconds', '2026-11-21T13:30:00-05:30'],
    ['with the largest offset', '2026-11-21T19:00+23:59'],
    ['with the smallest offset', '2026-11-21T19:00-23:59'],
    ['on a leap day', '2024-02-29T12:00Z'],
    ['on a leap day of a 400-year', '2000-02-29T12:00Z'],
    ['at the last second of a day', '2026-12-31T23:59:59.999Z'],
  ])('When a date-time %s is sent (%s), then it is accepted', (_, value) => {
    expect(startsAt(value)).toMatchObject({ ok: true });
  });

  it.each([
    ['with an offset of +24:00', '2026-11-21T19:00+24:00'],
    ['with offset minutes of 60', '2026-11-21T19:00+01:60'],
    ['on the 29th of February of a common year', '2023-02-29T12:00Z'],
    ['on the 29th of February of a century year', '1900-02-29T12:00Z'],
    ['on the 31st of April', '2026-04-31T12:00Z'],
    ['at 24:00', '2026-11-21T24:00Z'],
    ['with a leap second', '2026-12-31T23:59:60Z'],
    ['without an offset', '2026-11-21T19:00:00'],
    ['as a date only', '2026-11-21'],
    ['with a lower-case t', '2026-11-21t19:00Z'],
    ['with a lower-case z', '2026-11-21T19:00z'],
    ['with a space instead of T', '2026-11-21 19:00Z'],
    ['with an offset without colon', '2026-11-21T19:00+0100'],
    ['with an empty fraction', '2026-11-21T19:00:00.Z'],
    ['in month 13', '2026-13-01T19:00Z'],
    ['as epoch milliseconds', 1763751600000],
    ['as an empty string', ''],
  ])('When a date-time %s is sent (%s), then it is refused at its path', (_, value) => {
    const result = startsAt(value);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.details).toEqual([
      { path: '/startsAt', message: expect.stringMatching(/^must be/) },
    ]);
  });

  it('When a nested date-time is invalid, then the detail points into the nesting', () => {
    const body = {
      ...minimalReservationBody(),
      guest: {
        recentVisits: [
          { occurredAt: '2026-10-01T20:15Z', outcome: 'completed' },
          { occurredAt: '2023-02-29T10:00Z', outcome: 'no_show' },
        ],
      },
    };
    expect(validator.reservationRequest(body)).toEqual({
      ok: false,
      details: [
        {
          path: '/guest/recentVisits/1/occurredAt',
          message:
            'must be an ISO 8601 date-time with an offset, e.g. 2026-11-21T19:00:00Z or 2026-11-21T20:00+01:00',
        },
      ],
    });
  });
});
