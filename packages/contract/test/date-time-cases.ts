/**
 * Date-times a request may send and those it may not (docs/reference/limits-and-formats.md#date-times,
 * decision 0002): what the validator accepts and refuses, and what the published pattern must
 * agree with.
 */
export const VALID_DATE_TIMES: readonly (readonly [string, string])[] = [
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
];

export const INVALID_DATE_TIMES: readonly (readonly [string, string | number])[] = [
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
];
