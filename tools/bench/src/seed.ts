import { Client } from 'pg';
import { BACKOFFICE_TOKEN, call } from './env';

export interface BenchLocation {
  locationId: string;
  key: string;
  tableIds: string[];
}

/** The guest and prepayment of every benchmark body: each field filled, as a busy provider sends. */
export const GUEST = {
  name: 'Ada Lovelace',
  phone: '+44 20 7946 0958',
  email: 'ada@example.com',
  vip: true,
  firstVisit: false,
  visitCount: 12,
  occasion: 'Anniversary',
  allergies: 'Shellfish; tree nuts',
  tags: ['regular', 'window-seat', 'wine-pairing'],
  memberSince: '2019-04-01T00:00:00.000Z',
  averageSpendMinor: 8450,
  noShowCount: 0,
  recentVisits: [
    {
      occurredAt: '2026-10-02T19:30:00.000Z',
      tableLabel: '12',
      covers: 2,
      spendMinor: 9100,
      outcome: 'completed',
    },
    {
      occurredAt: '2026-08-14T20:00:00.000Z',
      tableLabel: '4',
      covers: 4,
      spendMinor: 15200,
      outcome: 'completed',
    },
  ],
};
export const PREPAYMENT = {
  prepaidMinor: 5000,
  currency: 'EUR',
  items: [
    { label: 'Tasting menu deposit', amountMinor: 4000 },
    { label: 'Wine pairing deposit', amountMinor: 1000 },
  ],
  imprint: { amountMinor: 10000, status: 'active' },
};

/** A full PUT/POST body of the contract. */
export function fullBody(externalId: string, updatedAt: string, extra: Record<string, unknown> = {}) {
  return {
    externalId,
    status: 'confirmed',
    partyName: 'Lovelace party',
    covers: 2,
    startsAt: '2026-11-21T19:00:00Z',
    endsAt: '2026-11-21T21:00:00Z',
    tableIds: [],
    guest: GUEST,
    internalNote: 'Prefers the quiet corner; birthday cake at 21:00',
    prepayment: PREPAYMENT,
    posOrderId: null,
    updatedAt,
    ...extra,
  };
}

/** A location with a key and a published plan of `tables` tables (rooms of 50). */
export async function provisionLocation(baseUrl: string, tables: number): Promise<BenchLocation> {
  const location = await call<{ id: string }>(
    baseUrl,
    BACKOFFICE_TOKEN,
    'POST',
    '/api/backoffice/v1/locations',
    {
      name: 'Bench Brasserie',
      brand: 'bench',
    },
  );
  const ops = `/api/backoffice/v1/locations/${location.id}`;
  const { key } = await call<{ key: string }>(baseUrl, BACKOFFICE_TOKEN, 'POST', `${ops}/api-keys`);
  const rooms = Array.from({ length: Math.ceil(tables / 50) }, (_, r) => ({
    externalId: `room-${r}`,
    name: `Room ${r + 1}`,
    tables: Array.from({ length: Math.min(50, tables - r * 50) }, (_, t) => ({
      externalId: `t-${r}-${t}`,
      label: `${r + 1}.${t + 1}`,
      seatCount: 4,
      x: 20 + (t % 10) * 90,
      y: 20 + Math.floor(t / 10) * 150,
    })),
  }));
  const imported = await call<{ mapping: { tableId: string }[] }>(
    baseUrl,
    key,
    'POST',
    '/api/provider/v1/floorplan/import',
    { rooms },
  );
  await call(baseUrl, BACKOFFICE_TOKEN, 'POST', `${ops}/floorplan/publish`);
  return { locationId: location.id, key, tableIds: imported.mapping.map((m) => m.tableId) };
}

/**
 * `count` reservations `<prefix>-<n>` straight into the table (as the API would store them),
 * starting at `startsAt` and `spacingSeconds` apart, with guest and prepayment filled.
 */
export async function seedReservations(
  databaseUrl: string,
  locationId: string,
  prefix: string,
  count: number,
  startsAt: string,
  spacingSeconds: number,
): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO reservations (id, location_id, external_id, status, party_name, covers, starts_at, ends_at,
                                 table_ids, guest, internal_note, prepayment, pos_order_id, updated_at,
                                 linked_order_id, arrived_at, received_at)
       SELECT gen_random_uuid(), $1, $2 || '-' || n, 'confirmed', 'Party ' || n, 1 + n % 8,
              $3::timestamptz + make_interval(secs => n * $4::float8),
              $3::timestamptz + make_interval(secs => n * $4::float8 + 7200),
              '{}', $5::jsonb, 'seeded', $6::jsonb, NULL, '2026-01-01T00:00:00Z', NULL, NULL, now()
         FROM generate_series(0, $7::int - 1) AS n`,
      [
        locationId,
        prefix,
        startsAt,
        spacingSeconds,
        JSON.stringify(GUEST),
        JSON.stringify(PREPAYMENT),
        count,
      ],
    );
    await client.query('VACUUM ANALYZE reservations');
  } finally {
    await client.end();
  }
}
