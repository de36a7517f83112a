import { INVALID_DATE_TIMES, VALID_DATE_TIMES } from '../../test/date-time-cases';
import { minimalReservationBody } from '../../test/sample-bodies';
import { createValidator } from './validator';

const validator = createValidator();
const startsAt = (value: unknown) =>
  validator.reservationRequest({ ...minimalReservationBody(), startsAt: value });

/** docs/reference/limits-and-formats.md#date-times and decision 0002. */
describe('date-time format', () => {
  it.each(VALID_DATE_TIMES)('When a date-time %s is sent (%s), then it is accepted', (_, value) => {
    expect(startsAt(value)).toMatchObject({ ok: true });
  });

  it.each(INVALID_DATE_TIMES)(
    'When a date-time %s is sent (%s), then it is refused at its path',
    (_, value) => {
      const result = startsAt(value);
      expect(result.ok).toBe(false);
      expect(result.ok ? [] : result.details).toEqual([
        { path: '/startsAt', message: expect.stringMatching(/^must be/) },
      ]);
    },
  );

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
