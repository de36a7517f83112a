import fc from 'fast-check';
import { Harness, type TestLocation } from './support/harness';
import { P, reservation, type Json } from './support/wire';

/**
 * The recovery guarantees under concurrent writers on PostgreSQL: 16 till and provider
 * writers in one location (seat, walk in, move, items, service status, close) while a reader
 * polls the feed. The reader never sees a gap or a reordering, and a snapshot taken mid-run
 * plus the feed from its asOfSequence rebuilds exactly the live state at the end.
 */
let h: Harness;

beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

jest.setTimeout(120_000);

const WRITERS = 16;
/**
 * A till write on an order another writer closed or moved: 409 (taken table, order_closed) or
 * 422 (not open); 503 when the machine is so loaded that a write waits past its deadline for
 * the location's row (a refused write changes nothing, which is all the properties rely on).
 */
const TILL_ANSWERS = [200, 409, 422, 503];
const REFUSALS = [409, 503];
const TABLES = 8;

type Op =
  | { kind: 'walkIn'; table: number; covers: number }
  | { kind: 'seat'; table: number; covers: number }
  | { kind: 'move'; table: number }
  | { kind: 'item'; amountMinor: number }
  | { kind: 'status'; status: string }
  | { kind: 'close' };

const table = fc.integer({ min: 0, max: TABLES - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('walkIn' as const), table, covers: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('seat' as const), table, covers: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant('move' as const), table }),
  fc.record({ kind: fc.constant('item' as const), amountMinor: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom('starters', 'mains', 'desserts', 'bill_requested'),
  }),
  fc.record({ kind: fc.constant('close' as const) }),
);

/** One writer: its own last order is what move, item, status and close act on. */
async function write(loc: TestLocation, ops: Op[]): Promise<void> {
  let orderId: string | null = null;
  for (const o of ops) {
    const order = (path: string) => loc.ops(`/orders/${orderId}${path}`);
    switch (o.kind) {
      case 'walkIn': {
        const res = await h.operator
          .post(loc.ops('/orders'))
          .send({ tableIds: [loc.tables[o.table]], covers: o.covers });
        if (res.status === 201) orderId = res.body.id;
        else expect(REFUSALS).toContain(res.status);
        break;
      }
      case 'seat': {
        const body = reservation({ status: 'seated', tableIds: [loc.tables[o.table]], covers: o.covers });
        const res = await loc.api.post(`${P}/reservations`).send(body);
        if (res.status === 201) orderId = res.body.reservation.linkedOrderId;
        else expect(REFUSALS).toContain(res.status);
        break;
      }
      case 'move':
        if (orderId)
          expect(TILL_ANSWERS).toContain(
            (await h.operator.post(order('/move')).send({ tableIds: [loc.tables[o.table]] })).status,
          );
        break;
      case 'item':
        if (orderId)
          expect(TILL_ANSWERS).toContain(
            (await h.operator.post(order('/items')).send({ label: 'Dish', amountMinor: o.amountMinor }))
              .status,
          );
        break;
      case 'status':
        if (orderId)
          expect(TILL_ANSWERS).toContain(
            (await h.operator.post(order('/service-status')).send({ status: o.status })).status,
          );
        break;
      case 'close':
        if (orderId) expect(TILL_ANSWERS).toContain((await h.operator.post(order('/close'))).status);
        break;
    }
  }
}

/** A read, again after a 503 (a loaded machine), until it answers 200. */
async function readable(send: () => Promise<{ status: number; body: unknown }>): Promise<{ body: unknown }> {
  for (let attempt = 0; ; attempt++) {
    const res = await send();
    if (res.status === 200) return res;
    expect({ attempt, status: res.status }).toEqual({ attempt, status: 503 });
    if (attempt >= 20) throw new Error('the read kept answering 503');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface RebuiltOrder {
  id: string;
  reservationExternalId: string | null;
  covers: number;
  spendMinor: number | null;
  serviceStatus: string | null;
}
interface Rebuilt {
  tables: Map<string, string | null>;
  orders: Map<string, RebuiltOrder>;
}

const dataOf = (e: Json) => e['data'] as Json;

/** What a provider keeps: the snapshot's tables and orders, then every event applied in sequence. */
function fromSnapshot(state: Json): Rebuilt {
  const rebuilt: Rebuilt = { tables: new Map(), orders: new Map() };
  for (const t of state['tables'] as Json[]) {
    const order = t['order'] as Json | null;
    rebuilt.tables.set(t['tableId'] as string, order ? (order['id'] as string) : null);
    if (order) {
      rebuilt.orders.set(order['id'] as string, {
        id: order['id'] as string,
        reservationExternalId: order['reservationExternalId'] as string | null,
        covers: order['covers'] as number,
        spendMinor: order['spendMinor'] as number,
        serviceStatus: order['serviceStatus'] as string | null,
      });
    }
  }
  return rebuilt;
}

function apply(rebuilt: Rebuilt, event: Json): void {
  const d = dataOf(event);
  const orderId = d['orderId'] as string;
  const known = rebuilt.orders.get(orderId);
  switch (event['type']) {
    case 'table.occupied':
      rebuilt.tables.set(d['tableId'] as string, orderId);
      rebuilt.orders.set(orderId, {
        id: orderId,
        reservationExternalId: d['reservationExternalId'] as string | null,
        covers: d['covers'] as number,
        spendMinor: known?.spendMinor ?? 0,
        serviceStatus: known?.serviceStatus ?? null,
      });
      break;
    case 'table.freed':
      if (rebuilt.tables.get(d['tableId'] as string) === orderId)
        rebuilt.tables.set(d['tableId'] as string, null);
      break;
    case 'table.spend_updated':
      rebuilt.orders.set(orderId, {
        ...known!,
        spendMinor: d['spendMinor'] as number,
        covers: d['covers'] as number,
      });
      break;
    case 'table.status_changed':
      rebuilt.orders.set(orderId, { ...known!, serviceStatus: d['serviceStatus'] as string });
      break;
  }
}

/** The live state in the rebuilt form: which order holds each table, and those orders. */
function view(rebuilt: Rebuilt): Json {
  const tables = Object.fromEntries([...rebuilt.tables].sort(([a], [b]) => (a < b ? -1 : 1)));
  const orders = Object.fromEntries(
    [...new Set(rebuilt.tables.values())]
      .filter((id): id is string => id !== null)
      .sort()
      .map((id) => [id, rebuilt.orders.get(id)]),
  );
  return { tables, orders };
}

async function feedAfter(loc: TestLocation, after: number): Promise<Json[]> {
  const events: Json[] = [];
  for (let position = after; ;) {
    const page = (await loc.api.get(`${P}/events?after=${position}&limit=1000`).expect(200)).body;
    events.push(...page.events);
    position = page.nextAfter;
    if (!page.hasMore) return events;
  }
}

it('When 16 writers race in one location, then a polling reader sees every sequence once in order, and snapshot + feed from asOfSequence equals the live state', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(op, { minLength: 4, maxLength: 8 }), { minLength: WRITERS, maxLength: WRITERS }),
      fc.integer({ min: 0, max: 60 }),
      async (plans, snapshotAfterMs) => {
        const loc = await h.location({ tables: TABLES });
        let writing = true;
        const seen: number[] = [];
        const reader = (async () => {
          let after = 0;
          for (;;) {
            // A page asked for while writers ran may miss the last commits: the reader stops
            // only on a page it asked for after every writer was done.
            const askedWhileWriting = writing;
            const page = (await readable(() => loc.api.get(`${P}/events?after=${after}&limit=50`))).body as {
              events: Json[];
              nextAfter: number;
              hasMore: boolean;
            };
            for (const e of page.events as Json[]) seen.push(dataOf(e)['locationEventSequence'] as number);
            after = page.nextAfter;
            if (!askedWhileWriting && !page.hasMore) break;
          }
        })();
        const snapshot = (async () => {
          await new Promise((resolve) => setTimeout(resolve, snapshotAfterMs));
          return (await readable(() => loc.api.get(`${P}/tables/state`))).body as Json;
        })();

        try {
          await Promise.all(plans.map((ops) => write(loc, ops)));
        } finally {
          writing = false;
        }
        await reader;
        const mid = await snapshot;

        const live = (await loc.api.get(`${P}/tables/state`).expect(200)).body as Json;
        const last = live['asOfSequence'] as number;
        expect(seen).toEqual(Array.from({ length: last }, (_, i) => i + 1));
        const rebuilt = fromSnapshot(mid);
        for (const event of await feedAfter(loc, mid['asOfSequence'] as number)) apply(rebuilt, event);
        expect(view(rebuilt)).toEqual(view(fromSnapshot(live)));
      },
    ),
    { numRuns: 5, endOnFailure: true },
  );
});
