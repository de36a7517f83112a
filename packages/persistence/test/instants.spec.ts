import { utcTimestampText } from '../src/db-instant';
import { postgresStore, type Store } from './support/harness';
import { describeInstantRoundTrip } from './support/instants.behaviour';

let store: Store;
/** Sessions whose TimeZone is not UTC, as behind a pooler that cannot pin it. */
let zoned: Store;
beforeAll(async () => {
  store = await postgresStore(2);
  zoned = await postgresStore(2, { TimeZone: 'Asia/Kathmandu' });
});
afterAll(() => Promise.all([store?.close(), zoned?.close()]));

describeInstantRoundTrip('PostgreSQL', () => store);
describeInstantRoundTrip('PostgreSQL in TimeZone Asia/Kathmandu', () => zoned);

describe('timestamptz text from sessions in any TimeZone', () => {
  it.each([
    ['Asia/Kathmandu', '2026-11-21T19:00:00.123456Z', '2026-11-21 19:00:00.123456+00'],
    ['America/St_Johns', '2026-01-01T02:00:00Z', '2026-01-01 02:00:00+00'],
    ['Europe/Paris', '1850-06-01T12:00:00.000001Z', '1850-06-01 12:00:00.000001+00'],
    ['America/New_York', '0001-01-01T00:00:00.5Z', '0001-01-01 00:00:00.5+00'],
    ['Pacific/Kiritimati', '9999-12-31T23:59:59.999999Z', '9999-12-31 23:59:59.999999+00'],
  ])(
    'When a session in %s reads %s, then the row holds it in UTC with every digit',
    async (zone, instant, expected) => {
      const rows = await zoned.db.transaction(async (sql) => {
        await sql.rows(`SET LOCAL TimeZone = '${zone}'`);
        return sql.rows<{ at: string; local: string }>(
          'SELECT $1::timestamptz AS at, $1::timestamptz::text AS local',
          [instant],
        );
      });

      expect(rows[0]!.at).toBe(expected);
      expect(rows[0]!.local).not.toBe(expected);
    },
  );

  it.each([
    ['2026-11-22 00:45:00+05:45', '2026-11-21 19:00:00+00'],
    ['1850-06-01 12:09:21.000001+00:09:21', '1850-06-01 12:00:00.000001+00'],
    ['0001-12-31 19:00:00.5-05 BC', '0001-01-01 00:00:00.5+00'],
    ['2026-11-21 19:00:00+00', '2026-11-21 19:00:00+00'],
    ['infinity', 'infinity'],
  ])('When the text is %s, then it reads %s', (text, expected) => {
    expect(utcTimestampText(text)).toBe(expected);
  });
});
