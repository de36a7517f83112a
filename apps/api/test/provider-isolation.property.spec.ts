import fc from 'fast-check';
import type { Response } from 'supertest';
import { Harness, type TestLocation } from './support/harness';
import { createProvider, grant, revoke, type LocatedClient } from './support/providers';
import { P, nextUpdatedAt, reservation, type Json } from './support/wire';

/**
 * docs/reference/providers.md#isolation, as a property: random steps by two providers and the
 * location's own key at one venue (creates, seats, moves, cancels, till closes, grants and
 * revokes), writes of one step sent at once. Whatever the interleaving:
 * - no reservation id leaks: every `reservationExternalId` a provider is shown (a 409's
 *   occupiedBy, every event of its feed, every order of its snapshot) is its own reservation's
 *   on its own order, and null on any other order;
 * - nothing is lost: each provider lists exactly the reservations it created, each as its
 *   newest applied write left it, also after being revoked and granted again;
 * - the feed is exact: a provider's feed holds exactly the events committed while it was
 *   connected (grants and revokes run alone, so their fences are known).
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const WINDOW = 'from=2026-11-21T00:00Z&to=2026-11-22T00:00Z';
const ACTORS = ['a', 'b', 'own'] as const;
type Actor = (typeof ACTORS)[number];
const EXTERNAL_IDS = ['r-1', 'r-2', 'r-3'];

type Write =
  | { kind: 'create'; actor: Actor; externalId: string; table: number | null }
  | {
      kind: 'put';
      actor: Actor;
      externalId: string;
      status: 'seated' | 'cancelled' | 'booked';
      table: number;
    };
type Step =
  | { kind: 'writes'; writes: Write[] }
  | { kind: 'grant' | 'revoke'; actor: 'a' | 'b' }
  | { kind: 'close'; order: number };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    actor: fc.constantFrom(...ACTORS),
    externalId: fc.constantFrom(...EXTERNAL_IDS),
    table: fc.option(fc.nat(3), { nil: null }),
  }),
  fc.record({
    kind: fc.constant('put' as const),
    actor: fc.constantFrom(...ACTORS),
    externalId: fc.constantFrom(...EXTERNAL_IDS),
    status: fc.constantFrom('seated' as const, 'cancelled' as const, 'booked' as const),
    table: fc.nat(3),
  }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('writes' as const),
      writes: fc.array(write, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('grant' as const, 'revoke' as const),
      actor: fc.constantFrom('a' as const, 'b' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), order: fc.nat(5) }) },
);

/** What one actor should see and hold. */
interface Ledger {
  api: LocatedClient | TestLocation['api'];
  providerId: string;
  connected: boolean;
  /** Sequences (after, through] of the location's events committed while connected. */
  spans: { after: number; through: number | null }[];
  /** Its orders: opened by seating one of its reservations, with that reservation's externalId. */
  orders: Map<string, string>;
  /** Its reservations: id, and the newest applied write (by updatedAt). */
  reservations: Map<string, { id: string; updatedAt: string; status: string; partyName: string }>;
}

async function run(steps: Step[]): Promise<void> {
  const loc = await h.location({ tables: 4 });
  const [pa, pb] = [await createProvider(h), await createProvider(h)];
  const lastSequence = async () =>
    (await loc.api.get(`${P}/tables/state`).expect(200)).body.asOfSequence as number;
  const ledger = (api: Ledger['api'], providerId: string): Ledger => ({
    api,
    providerId,
    connected: false,
    spans: [],
    orders: new Map(),
    reservations: new Map(),
  });
  const who: Record<Actor, Ledger> = {
    a: ledger(pa.at(loc), pa.id),
    b: ledger(pb.at(loc), pb.id),
    own: { ...ledger(loc.api, loc.id), connected: true, spans: [{ after: 0, through: null }] },
  };
  const connect = async (actor: 'a' | 'b') => {
    await grant(h, loc, { id: who[actor].providerId });
    if (!who[actor].connected) who[actor].spans.push({ after: await lastSequence(), through: null });
    who[actor].connected = true;
  };
  const disconnect = async (actor: 'a' | 'b') => {
    await revoke(h, loc, { id: who[actor].providerId });
    if (who[actor].connected) who[actor].spans[who[actor].spans.length - 1]!.through = await lastSequence();
    who[actor].connected = false;
  };
  await connect('a');
  await connect('b');

  /** The one rule: a provider sees its own reservation's id on its own order, null on any other. */
  const expectVisible = (
    actor: Actor,
    shown: { orderId: unknown; reservationExternalId: unknown },
    where: string,
  ) => {
    const expected = who[actor].orders.get(String(shown.orderId)) ?? null;
    expect({ actor, where, orderId: shown.orderId, seen: shown.reservationExternalId }).toEqual({
      actor,
      where,
      orderId: shown.orderId,
      seen: expected,
    });
  };

  /**
   * Sends one write of a batch; what its answer shows of an order is checked by the returned
   * function once the whole batch is answered: a write racing another of the same provider
   * may be refused for the order that other one just made, before that one's answer (which
   * tells the ledger the order is the provider's own) has arrived.
   */
  const send = async (w: Write): Promise<() => void> => {
    const me = who[w.actor];
    const table = w.table === null ? [] : [loc.tables[w.table]];
    const updatedAt = nextUpdatedAt();
    const partyName = `${w.actor}-${updatedAt}`;
    const body =
      w.kind === 'create'
        ? reservation({
            externalId: w.externalId,
            updatedAt,
            partyName,
            ...(table.length ? { status: 'seated', tableIds: table } : {}),
          })
        : reservation({ externalId: w.externalId, updatedAt, partyName, status: w.status, tableIds: table });
    const res: Response =
      w.kind === 'create'
        ? await me.api.post(`${P}/reservations`).send(body)
        : await me.api.put(`${P}/reservations/${w.externalId}`).send(body);
    if (!me.connected) {
      expect({ write: w, status: res.status, code: res.body.error?.code }).toEqual({
        write: w,
        status: 403,
        code: 'location_not_granted',
      });
      return () => undefined;
    }
    let check: () => void = () => undefined;
    if (res.status === 409 && res.body.error.code === 'table_occupied') {
      check = () => expectVisible(w.actor, res.body.error.occupiedBy, `409 of ${JSON.stringify(w)}`);
    }
    if ((res.status === 200 || res.status === 201) && res.body.outcome === 'applied') {
      const stored = res.body.reservation as Json;
      const known = me.reservations.get(w.externalId);
      if (known !== undefined) expect(stored['id']).toBe(known.id);
      if (known === undefined || known.updatedAt < updatedAt) {
        me.reservations.set(w.externalId, {
          id: String(stored['id']),
          updatedAt,
          status: String(stored['status']),
          partyName,
        });
      }
      if (stored['linkedOrderId'] !== null) me.orders.set(String(stored['linkedOrderId']), w.externalId);
    }
    expect({ write: w, status: res.status < 500 }).toEqual({ write: w, status: true });
    return check;
  };

  for (const s of steps) {
    if (s.kind === 'writes') for (const check of await Promise.all(s.writes.map(send))) check();
    else if (s.kind === 'close') {
      const open = await h.openOrders(loc);
      const order = open[s.order % Math.max(1, open.length)];
      if (order) await h.operator.post(loc.ops(`/orders/${order['id']}/close`)).expect(200);
    } else if (s.kind === 'grant') await connect(s.actor);
    else await disconnect(s.actor);
  }

  const everything = await feedOf(loc.api);
  for (const actor of ACTORS) {
    const me = who[actor];
    if (actor !== 'own' && !me.connected) await connect(actor);
    const feed = await feedOf(me.api);
    const within = (sequence: number) =>
      me.spans.some((sp) => sequence > sp.after && (sp.through === null || sequence <= sp.through));
    expect({ actor, feed: feed.map((e) => e.seq) }).toEqual({
      actor,
      feed: everything.map((e) => e.seq).filter(within),
    });
    for (const event of feed)
      expectVisible(
        actor,
        event.data as { orderId: unknown; reservationExternalId: unknown },
        `event ${event.seq}`,
      );
    const state = (await me.api.get(`${P}/tables/state`).expect(200)).body;
    for (const table of state.tables as Json[]) {
      if (table['order'] !== null) {
        const order = table['order'] as Json;
        expectVisible(
          actor,
          { orderId: order['id'], reservationExternalId: order['reservationExternalId'] },
          `snapshot ${table['tableId']}`,
        );
      }
    }
    const listed = (await me.api.get(`${P}/reservations?${WINDOW}&limit=500`).expect(200)).body
      .reservations as Json[];
    expect({
      actor,
      listed: listed.map((r) => [r['externalId'], r['id'], r['status'], r['partyName']]).sort(),
    }).toEqual({
      actor,
      listed: [...me.reservations].map(([externalId, r]) => [externalId, r.id, r.status, r.partyName]).sort(),
    });
  }
}

/** Every event of the feed the client may read, page by page. */
async function feedOf(api: Ledger['api']): Promise<{ seq: number; data: Json }[]> {
  const events: { seq: number; data: Json }[] = [];
  let after = 0;
  for (;;) {
    const page = (await api.get(`${P}/events?after=${after}&limit=1000`).expect(200)).body;
    for (const e of page.events as Json[]) {
      const data = e['data'] as Json;
      if ('orderId' in data) events.push({ seq: Number(data['locationEventSequence']), data });
      else
        events.push({
          seq: Number(data['locationEventSequence']),
          data: { orderId: null, reservationExternalId: null },
        });
    }
    after = page.nextAfter;
    if (!page.hasMore) return events;
  }
}

describe('Isolation between the providers of one venue, as a property', () => {
  it('When two providers and the location key write, seat, move and cancel while grants and revokes come and go, then no reservation id leaks, nothing is lost and each feed is exactly what was committed while connected', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        await run(steps);
      }),
      { numRuns: 20, endOnFailure: true },
    );
  });
});
