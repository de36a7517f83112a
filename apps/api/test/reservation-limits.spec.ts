import { MAX_INT32 } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import {
  P,
  UTC_MILLIS,
  fullGuest,
  fullPrepayment,
  fullReservation,
  requestFieldsOf,
  reservation,
  uniqueId,
  type Json,
} from './support/wire';

/**
 * Both sides of every bound in docs/reference/provider-api.md#reservation-fields and
 * limits-and-formats.md, through POST /reservations: an accepted value is echoed exactly as sent, a
 * refused one is `422 validation_failed` with a detail at its JSON Pointer.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

type Row = [description: string, body: Json, pointer: string | null];

const chars = (n: number, ch = 'x') => ch.repeat(n);
const visit = (overrides: Json = {}): Json => ({
  occurredAt: '2026-10-02T19:30:00.000Z',
  outcome: 'completed',
  ...overrides,
});
const item = (overrides: Json = {}): Json => ({ label: 'Deposit', amountMinor: 100, ...overrides });

/** Where a value sits in a full body, and how to put one there. */
const at = {
  top: (field: string) => (value: unknown) => fullReservation({ [field]: value }),
  guest: (field: string) => (value: unknown) => fullReservation({ guest: fullGuest({ [field]: value }) }),
  visit: (field: string) => (value: unknown) =>
    fullReservation({ guest: fullGuest({ recentVisits: [visit({ [field]: value })] }) }),
  prepayment: (field: string) => (value: unknown) =>
    fullReservation({ prepayment: fullPrepayment({ [field]: value }) }),
  item: (field: string) => (value: unknown) =>
    fullReservation({ prepayment: fullPrepayment({ items: [item({ [field]: value })] }) }),
  imprint: (field: string) => (value: unknown) =>
    fullReservation({
      prepayment: fullPrepayment({ imprint: { amountMinor: 1, status: 'active', [field]: value } }),
    }),
};

function lengths(name: string, pointer: string, put: (v: unknown) => Json, min: number, max: number): Row[] {
  return [
    [`${name} of ${min - 1} characters`, put(chars(min - 1)), pointer],
    [`${name} of ${min} character(s)`, put(chars(min)), null],
    [`${name} of ${max} characters`, put(chars(max)), null],
    [`${name} of ${max + 1} characters`, put(chars(max + 1)), pointer],
  ];
}

function integers(name: string, pointer: string, put: (v: unknown) => Json, min: number): Row[] {
  return [
    [`${name} ${min - 1}`, put(min - 1), pointer],
    [`${name} ${min}`, put(min), null],
    [`${name} ${MAX_INT32}`, put(MAX_INT32), null],
    [`${name} ${MAX_INT32 + 1}`, put(MAX_INT32 + 1), pointer],
  ];
}

function counts(
  name: string,
  pointer: string,
  put: (v: unknown) => Json,
  make: (i: number) => unknown,
  max: number,
): Row[] {
  const list = (n: number) => Array.from({ length: n }, (_, i) => make(i));
  return [
    [`${name} with ${max} items`, put(list(max)), null],
    [`${name} with ${max + 1} items`, put(list(max + 1)), pointer],
  ];
}

const rows: Row[] = [
  ...lengths('externalId', '/externalId', (v) => reservation({ externalId: `${v}` }), 1, 128).map(
    // Unique per run: an accepted externalId is created once only.
    ([d, body, p]): Row => [d, { ...body, externalId: uniquePadded(String(body['externalId']).length) }, p],
  ),
  ...lengths('partyName', '/partyName', at.top('partyName'), 1, 120),
  ...lengths('internalNote', '/internalNote', at.top('internalNote'), 1, 500),
  ...lengths('posOrderId', '/posOrderId', at.top('posOrderId'), 1, 128),
  ...lengths('guest.name', '/guest/name', at.guest('name'), 1, 120),
  ...lengths('guest.phone', '/guest/phone', at.guest('phone'), 1, 40),
  ...lengths('guest.email', '/guest/email', at.guest('email'), 1, 254),
  ...lengths('guest.occasion', '/guest/occasion', at.guest('occasion'), 1, 120),
  ...lengths('guest.allergies', '/guest/allergies', at.guest('allergies'), 1, 500),
  ...lengths('a guest tag', '/guest/tags/0', (v) => at.guest('tags')([v]), 1, 40),
  ...counts('guest.tags', '/guest/tags', at.guest('tags'), (i) => `tag-${i}`, 20),
  ...counts('guest.recentVisits', '/guest/recentVisits', at.guest('recentVisits'), () => visit(), 20),
  ...lengths('a recent visit tableLabel', '/guest/recentVisits/0/tableLabel', at.visit('tableLabel'), 1, 40),
  ...lengths('a prepayment item label', '/prepayment/items/0/label', at.item('label'), 1, 120),
  ...counts('prepayment.items', '/prepayment/items', at.prepayment('items'), () => item(), 50),
  ...lengths('prepayment.currency', '/prepayment/currency', at.prepayment('currency'), 3, 3).filter(
    ([d]) => !d.includes('of 3 characters'),
  ),
  ...integers('covers', '/covers', at.top('covers'), 1),
  ...integers('a recent visit covers', '/guest/recentVisits/0/covers', at.visit('covers'), 1),
  ...integers('guest.visitCount', '/guest/visitCount', at.guest('visitCount'), 0),
  ...integers('guest.averageSpendMinor', '/guest/averageSpendMinor', at.guest('averageSpendMinor'), 0),
  ...integers('guest.noShowCount', '/guest/noShowCount', at.guest('noShowCount'), 0),
  ...integers('a recent visit spendMinor', '/guest/recentVisits/0/spendMinor', at.visit('spendMinor'), 0),
  ...integers('prepayment.prepaidMinor', '/prepayment/prepaidMinor', at.prepayment('prepaidMinor'), 0),
  ...integers('a prepayment item amountMinor', '/prepayment/items/0/amountMinor', at.item('amountMinor'), 0),
  ...integers('imprint.amountMinor', '/prepayment/imprint/amountMinor', at.imprint('amountMinor'), 1),
  ['covers -1', at.top('covers')(-1), '/covers'],
  ['covers 1.5', at.top('covers')(1.5), '/covers'],
  ['a partyName of 120 emoji (characters, not UTF-16 units)', at.top('partyName')(chars(120, '😀')), null],
  ['a partyName of 121 emoji', at.top('partyName')(chars(121, '😀')), '/partyName'],
  ['a guest name with accents and CJK', at.guest('name')('Zoë Łukasz 李小龍'), null],
  ['an imprint status outside the list', at.imprint('status')('pending'), '/prepayment/imprint/status'],
  [
    'a recent visit outcome outside the list',
    at.visit('outcome')('cancelled'),
    '/guest/recentVisits/0/outcome',
  ],
  [
    'a recent visit without occurredAt',
    at.guest('recentVisits')([{ outcome: 'completed' }]),
    '/guest/recentVisits/0/occurredAt',
  ],
  [
    'a prepayment without currency',
    fullReservation({ prepayment: { prepaidMinor: 1 } }),
    '/prepayment/currency',
  ],
  [
    'an item without amountMinor',
    at.prepayment('items')([{ label: 'x' }]),
    '/prepayment/items/0/amountMinor',
  ],
  ['an empty table id', at.top('tableIds')(['']), '/tableIds/0'],
  ['guest.vip as a string', at.guest('vip')('true'), '/guest/vip'],
  ['a null tag', at.guest('tags')([null]), '/guest/tags/0'],
  ['posOrderId null', at.top('posOrderId')(null), null],
  ['posOrderId as a number', at.top('posOrderId')(77), '/posOrderId'],
  ['an unknown top-level property', fullReservation({ locationId: 'x' }), '/locationId'],
  ['an unknown property in a recent visit', at.visit('notes')('x'), '/guest/recentVisits/0/notes'],
  ['an unknown property in a prepayment item', at.item('vat')(20), '/prepayment/items/0/vat'],
  ['an unknown property in the imprint', at.imprint('currency')('EUR'), '/prepayment/imprint/currency'],
  ['an unknown property in the prepayment', at.prepayment('tip')(1), '/prepayment/tip'],
  ['the service-set field id', fullReservation({ id: 'mine' }), '/id'],
  ['the service-set field linkedOrderId', fullReservation({ linkedOrderId: null }), '/linkedOrderId'],
];

/** An externalId of exactly `length` characters that no other row uses. */
function uniquePadded(length: number): string {
  const id = uniqueId('e');
  return length <= 0
    ? ''
    : length <= id.length
      ? id.slice(-length).replace(/^-/, 'x')
      : id + chars(length - id.length);
}

const serviceFields = {
  id: expect.any(String),
  linkedOrderId: null,
  arrivedAt: null,
  receivedAt: expect.stringMatching(UTC_MILLIS),
};

it.each(
  rows.map(
    ([d, body, pointer]) =>
      [d, pointer === null ? '201 and echoed exactly' : `422 at "${pointer}"`, body, pointer] as const,
  ),
)('When a reservation has %s, then %s', async (_d, _outcome, body, pointer) => {
  const loc = await h.location({ plan: 'none' });

  const res = await loc.api.post(`${P}/reservations`).send(body);

  if (pointer === null) {
    expect(res.status).toBe(201);
    expect(res.body.reservation).toEqual({ ...requestFieldsOf(body), ...serviceFields });
    return;
  }
  expectEnvelope(res, 422, 'validation_failed');
  expect(res.body.error.details).toContainEqual({ path: pointer, message: expect.any(String) });
});

describe('tableIds', () => {
  it.each([
    [20, 201],
    [21, 422],
  ])('When a reservation names %i distinct published tables, then status %i', async (n, status) => {
    const loc = await h.location({ tables: 21 });

    const res = await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ tableIds: loc.tables.slice(0, n) }));

    if (status === 201) {
      expect(res.status).toBe(201);
      expect(res.body.reservation.tableIds).toEqual(loc.tables.slice(0, n));
    } else {
      expectEnvelope(res, 422, 'validation_failed');
      expect(res.body.error.details).toContainEqual({ path: '/tableIds', message: expect.any(String) });
    }
  });

  it('When a seated reservation names 20 tables, then one order opens on all 20', async () => {
    const loc = await h.location({ tables: 20 });

    const res = await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: loc.tables }));

    expect(res.status).toBe(201);
    const [order] = await h.openOrders(loc);
    expect([...(order!['tableIds'] as string[])].sort()).toEqual([...loc.tables].sort());
  });
});

describe('externalId in the path', () => {
  it.each([
    ['128 characters', 128, 200],
    ['129 characters', 129, 422],
  ])('When a PUT path externalId has %s (%i), then status %i', async (_d, length, status) => {
    const loc = await h.location({ plan: 'none' });
    const externalId = uniquePadded(length);
    const body = reservation({ externalId });
    if (status === 200) await loc.api.post(`${P}/reservations`).send(body).expect(201);

    const res = await loc.api
      .put(`${P}/reservations/${encodeURIComponent(externalId)}`)
      .send({ ...body, partyName: 'x', updatedAt: '2027-01-01T00:00:00.000Z' });

    if (status === 200)
      expect(res.body).toMatchObject({ outcome: 'applied', reservation: { externalId, partyName: 'x' } });
    else expectEnvelope(res, 422, 'validation_failed');
  });

  it.each([
    ['spaces and a slash', 'table for 2/terrace'],
    ['percent signs and unicode', '100% réservé ✓'],
    ['a dot segment', '..'],
  ])('When an externalId holds %s, then it round-trips through the path', async (_d, externalId) => {
    const loc = await h.location({ plan: 'none' });
    const body = reservation({ externalId });
    await loc.api.post(`${P}/reservations`).send(body).expect(201);

    const res = await loc.api
      .put(`${P}/reservations/${encodeURIComponent(externalId)}`)
      .send({ ...body, covers: 3, updatedAt: '2027-01-01T00:00:00.000Z' });

    expect(res.status).toBe(200);
    expect(res.body.reservation).toMatchObject({ externalId, covers: 3 });
  });
});
