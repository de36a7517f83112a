/** The guest of every benchmark body: each field filled, as a busy provider sends it. */
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

export interface BodyFields {
  externalId: string;
  updatedAt: string;
  status?: string;
  covers?: number;
  tableIds?: string[];
}

/** A full reservation body of the contract (POST and PUT), guest and prepayment filled. */
export function fullBody(fields: BodyFields): Record<string, unknown> {
  return {
    externalId: fields.externalId,
    status: fields.status ?? 'confirmed',
    partyName: 'Lovelace party',
    covers: fields.covers ?? 2,
    startsAt: '2026-11-21T19:00:00Z',
    endsAt: '2026-11-21T21:00:00Z',
    tableIds: fields.tableIds ?? [],
    guest: GUEST,
    internalNote: 'Prefers the quiet corner; birthday cake at 21:00',
    prepayment: PREPAYMENT,
    posOrderId: null,
    updatedAt: fields.updatedAt,
  };
}

/**
 * `fullBody` as a string with the varying fields spliced in: the load generator builds
 * thousands of bodies a second and should spend its CPU sending them, not serialising.
 */
export function bodyTemplate(
  fixed: Omit<BodyFields, 'externalId' | 'updatedAt'>,
): (externalId: string, updatedAt: string) => string {
  const [head, middle, tail] = JSON.stringify(
    fullBody({ ...fixed, externalId: '\u0001', updatedAt: '\u0002' }),
  )
    .split(/"\\u000[12]"/)
    .map((part) => part ?? '');
  return (externalId, updatedAt) => `${head}${JSON.stringify(externalId)}${middle}"${updatedAt}"${tail}`;
}

/**
 * A floor plan import of `tables` tables in rooms of up to 50 (the bounds of
 * docs/reference/provider-api.md#floor-plan-import-fields).
 */
export function floorPlanImport(tables: number): { rooms: unknown[] } {
  const rooms = Array.from({ length: Math.ceil(tables / 50) }, (_, r) => ({
    externalId: `room-${r}`,
    name: `Room ${r + 1}`,
    tables: Array.from({ length: Math.min(50, tables - r * 50) }, (_, t) => ({
      externalId: `t-${r}-${t}`,
      label: `${r + 1}.${t + 1}`,
      seatCount: 4,
      x: 50 + (t % 10) * 90,
      y: 50 + Math.floor(t / 10) * 150,
    })),
  }));
  return { rooms };
}

/** ISO 8601 UTC with milliseconds of `ms` since the epoch. */
export const iso = (ms: number): string => new Date(ms).toISOString();
