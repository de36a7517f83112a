import { expectRefusedAt, limitCases, list, str, withValue, type LimitRow } from '../../test/limit-rows';
import { createValidator, type ContractValidator } from '../validation/validator';
import { MAX_INT32 } from './primitives';

const validator = createValidator();
const ids = (n: number) => list(n, (i) => `table-${i}`);

interface Body {
  name: string;
  check: (v: ContractValidator, body: unknown) => { ok: boolean };
  base: Record<string, unknown>;
  rows: LimitRow[];
}

/** docs/reference/backoffice-api.md and provider-api.md#webhook-endpoint. */
const bodies: Body[] = [
  {
    name: 'location create',
    check: (v, b) => v.locationCreateRequest(b),
    base: { name: 'Trattoria', brand: 'acme', currency: 'EUR' },
    rows: [
      { pointer: '/name', valid: [str(1), str(120)], invalid: [str(0), str(121)] },
      {
        pointer: '/brand',
        valid: ['ab', 'a'.repeat(20), 'acme42'],
        invalid: ['a', 'a'.repeat(21), 'Acme', 'ac-me'],
      },
      { pointer: '/currency', valid: ['EUR', 'GBP'], invalid: ['eur', 'EU', 'EURO'] },
    ],
  },
  {
    name: 'walk-in order',
    check: (v, b) => v.orderCreateRequest(b),
    base: { tableIds: ['table-1'], covers: 2 },
    rows: [
      { pointer: '/tableIds', valid: [ids(1), ids(20)], invalid: [[], ids(21)] },
      { pointer: '/tableIds/0', valid: ['t'], invalid: ['', 3] },
      { pointer: '/covers', valid: [1, MAX_INT32], invalid: [0, MAX_INT32 + 1, 1.5] },
    ],
  },
  {
    name: 'order move',
    check: (v, b) => v.orderMoveRequest(b),
    base: { tableIds: ['table-1'] },
    rows: [{ pointer: '/tableIds', valid: [ids(1), ids(20)], invalid: [[], ids(21)] }],
  },
  {
    name: 'order item',
    check: (v, b) => v.orderItemRequest(b),
    base: { label: 'Espresso', amountMinor: 250, quantity: 2 },
    rows: [
      { pointer: '/label', valid: [str(1), str(120)], invalid: [str(0), str(121)] },
      { pointer: '/amountMinor', valid: [0, MAX_INT32], invalid: [-1, MAX_INT32 + 1, 2.5] },
      { pointer: '/quantity', valid: [1, 1000], invalid: [0, 1001, 1.5] },
    ],
  },
  {
    name: 'webhook endpoint',
    check: (v, b) => v.webhookEndpointRequest(b),
    base: { url: 'https://provider.example/hooks', events: ['table.freed'] },
    rows: [
      {
        pointer: '/url',
        valid: [str(1), 'https://x.example/' + str(2048 - 18)],
        invalid: [str(0), str(2049), null],
      },
      {
        pointer: '/events',
        valid: [
          ['floorplan.published'],
          ['floorplan.published', 'table.occupied', 'table.freed', 'table.spend_updated'],
        ],
        invalid: [[], 'table.freed'],
      },
      { pointer: '/events/0', valid: ['table.spend_updated'], invalid: ['table.updated', 'TABLE.FREED'] },
    ],
  },
];

const cases = bodies.flatMap((body) => {
  const { accepted, refused } = limitCases(body.rows);
  return [
    ...accepted.map((c) => ({ ...c, body, ok: true })),
    ...refused.map((c) => ({ ...c, body, ok: false })),
  ].map((c) => ({ ...c, title: c.body.name }));
});

describe('Backoffice and webhook endpoint body limits', () => {
  it.each(bodies.map((b) => ({ title: b.name, body: b })))(
    'When a valid $title body is sent, then it is accepted',
    ({ body }) => {
      expect(body.check(validator, body.base)).toMatchObject({ ok: true });
    },
  );

  it.each(cases.filter((c) => c.ok))(
    'When the $title body has $pointer = $shown, then it is accepted',
    (c) => {
      expect(c.body.check(validator, withValue(c.body.base, c.pointer, c.value))).toMatchObject({ ok: true });
    },
  );

  it.each(cases.filter((c) => !c.ok))(
    'When the $title body has $pointer = $shown, then it is refused there',
    (c) => {
      expectRefusedAt(
        c.body.check(validator, withValue(c.body.base, c.pointer, c.value)) as never,
        c.pointer,
      );
    },
  );

  it('When a walk-in names a table twice, then the repetition is refused at its index', () => {
    expect(validator.orderCreateRequest({ tableIds: ['a', 'b', 'a'], covers: 2 })).toEqual({
      ok: false,
      details: [{ path: '/tableIds/2', message: 'duplicates item 0' }],
    });
  });

  it('When an event type is subscribed twice, then the repetition is refused at its index', () => {
    const body = { url: 'https://x.example', events: ['table.freed', 'table.freed'] };
    expect(validator.webhookEndpointRequest(body)).toEqual({
      ok: false,
      details: [{ path: '/events/1', message: 'duplicates item 0' }],
    });
  });

  it('When optional fields are left out, then the bodies are accepted', () => {
    expect(validator.locationCreateRequest({ name: 'x', brand: 'ab' })).toMatchObject({ ok: true });
    expect(validator.orderItemRequest({ label: 'x', amountMinor: 0 })).toMatchObject({ ok: true });
    expect(validator.webhookEndpointRequest({ url: 'https://x.example' })).toMatchObject({ ok: true });
  });
});
