/**
 * Wire-JSON builders: request bodies as a provider sends them and the response forms the
 * contract promises for them. Every date-time here is already in the rendered form
 * (UTC, `Z`, milliseconds), so a response echoes it unchanged.
 */

export const P = '/api/provider/v1';
export const B = '/api/backoffice/v1';

let counter = 0;
const run = Math.random().toString(36).slice(2, 8);

/** An id no other test of this process uses. */
export function uniqueId(prefix = 'r'): string {
  counter += 1;
  return `${prefix}-${run}-${counter}`;
}

const BASE_UPDATED_AT = Date.parse('2026-11-20T10:00:00.000Z');
let ticks = 0;

/** A fresh `updatedAt`, later than every one handed out before in this process. */
export function nextUpdatedAt(): string {
  ticks += 1;
  return new Date(BASE_UPDATED_AT + ticks * 1000).toISOString();
}

export type Json = Record<string, unknown>;

/** The smallest valid POST/PUT body: only the required fields. */
export function reservation(overrides: Json = {}): Json {
  return {
    externalId: uniqueId(),
    status: 'confirmed',
    covers: 2,
    startsAt: '2026-11-21T19:00:00.000Z',
    updatedAt: nextUpdatedAt(),
    ...overrides,
  };
}

export function fullGuest(overrides: Json = {}): Json {
  return {
    name: 'Ada Lovelace',
    phone: '+44 20 7946 0958',
    email: 'ada@example.com',
    vip: true,
    firstVisit: false,
    visitCount: 7,
    occasion: 'Birthday',
    allergies: 'peanuts, shellfish',
    tags: ['regular', 'window seat'],
    memberSince: '2020-01-15T00:00:00.000Z',
    averageSpendMinor: 8450,
    noShowCount: 1,
    recentVisits: [
      {
        occurredAt: '2026-10-02T19:30:00.000Z',
        tableLabel: '12',
        covers: 2,
        spendMinor: 9100,
        outcome: 'completed',
      },
      {
        occurredAt: '2026-09-01T20:00:00.000Z',
        tableLabel: null,
        covers: null,
        spendMinor: null,
        outcome: 'no_show',
      },
    ],
    ...overrides,
  };
}

export function fullPrepayment(overrides: Json = {}): Json {
  return {
    prepaidMinor: 5000,
    currency: 'EUR',
    items: [
      { label: 'Tasting menu deposit', amountMinor: 4000 },
      { label: 'Wine pairing', amountMinor: 1000 },
    ],
    imprint: { amountMinor: 10000, status: 'active' },
    ...overrides,
  };
}

/** Every field of the request, each set: guest, prepayment and posOrderId included. */
export function fullReservation(overrides: Json = {}): Json {
  return {
    externalId: uniqueId(),
    status: 'confirmed',
    partyName: 'Ada Lovelace',
    covers: 4,
    startsAt: '2026-11-21T19:00:00.000Z',
    endsAt: '2026-11-21T21:00:00.000Z',
    tableIds: [],
    guest: fullGuest(),
    internalNote: 'Prefers the window; bring the high chair',
    prepayment: fullPrepayment(),
    posOrderId: 'pos-77',
    updatedAt: nextUpdatedAt(),
    ...overrides,
  };
}

const GUEST_DEFAULTS: Json = {
  name: null,
  phone: null,
  email: null,
  vip: false,
  firstVisit: false,
  visitCount: null,
  occasion: null,
  allergies: null,
  tags: [],
  memberSince: null,
  averageSpendMinor: null,
  noShowCount: null,
  recentVisits: [],
};

const VISIT_DEFAULTS: Json = { tableLabel: null, covers: null, spendMinor: null };

/**
 * The request fields of the response form of `body` (every default filled), for a body
 * whose date-times are already rendered. The service's own fields (`id`, `linkedOrderId`,
 * `arrivedAt`, `receivedAt`) are the caller's to check.
 */
export function requestFieldsOf(body: Json): Json {
  const guest = body['guest'] as Json | null | undefined;
  const prepayment = body['prepayment'] as Json | null | undefined;
  return {
    externalId: body['externalId'],
    status: body['status'],
    partyName: body['partyName'] ?? null,
    covers: body['covers'],
    startsAt: body['startsAt'],
    endsAt: body['endsAt'] ?? null,
    tableIds: body['tableIds'] ?? [],
    guest:
      guest == null
        ? null
        : {
            ...GUEST_DEFAULTS,
            ...guest,
            recentVisits: ((guest['recentVisits'] as Json[] | undefined) ?? []).map((v) => ({
              ...VISIT_DEFAULTS,
              ...v,
            })),
          },
    internalNote: body['internalNote'] ?? null,
    prepayment: prepayment == null ? null : { items: [], imprint: null, ...prepayment },
    posOrderId: body['posOrderId'] ?? null,
    updatedAt: body['updatedAt'],
  };
}

/** Every key the response form of a reservation has, in no particular order. */
export const RESERVATION_KEYS = [
  'id',
  'externalId',
  'status',
  'partyName',
  'covers',
  'startsAt',
  'endsAt',
  'tableIds',
  'guest',
  'internalNote',
  'prepayment',
  'posOrderId',
  'updatedAt',
  'linkedOrderId',
  'arrivedAt',
  'receivedAt',
].sort();

/** UTC, `Z`, exactly three fraction digits. */
export const UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface PlanOptions {
  tables?: number;
  rooms?: number;
  replaceDraft?: boolean;
}

/** A floor plan import body: `rooms` rooms of `tables` tables each, externalIds `R<r>-T<t>`. */
export function planImport({ tables = 4, rooms = 1, replaceDraft }: PlanOptions = {}): Json {
  const body: Json = {
    rooms: Array.from({ length: rooms }, (_, r) => ({
      externalId: `R${r + 1}`,
      name: `Room ${r + 1}`,
      tables: Array.from({ length: tables }, (_, t) => ({
        externalId: `R${r + 1}-T${t + 1}`,
        label: `${r + 1}.${t + 1}`,
        seatCount: 4,
        x: 100 + t,
        y: 100,
      })),
    })),
  };
  if (replaceDraft !== undefined) body['replaceDraft'] = replaceDraft;
  return body;
}
