import { Instant } from '@pis/domain';
import { createPersistence } from '@pis/persistence';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { Receiver, verified, type Received } from './support/receiver';
import { P, reservation, type Json } from './support/wire';

/**
 * docs/reference/recovery.md through the API with in-process delivery: the event feed, the
 * table-state snapshot and recover, as a provider that missed webhooks uses them.
 */
let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '20,20', WEBHOOK_TIMEOUT_MS: '1000' });
  await h.runtime.start();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

type FeedEvent = {
  id: string;
  type: string;
  timestamp: string;
  data: Json & { locationEventSequence: number };
};

const seq = (e: Json) => (e.data as { locationEventSequence: number }).locationEventSequence;

/** Every event of the feed after `after`, page by page of `limit`. */
async function readFeed(loc: TestLocation, after = 0, limit = 100, types?: string): Promise<FeedEvent[]> {
  const all: FeedEvent[] = [];
  for (let position = after; ;) {
    const query = `after=${position}&limit=${limit}${types ? `&types=${types}` : ''}`;
    const page = (await loc.api.get(`${P}/events?${query}`).expect(200)).body;
    all.push(...page.events);
    expect(page.nextAfter).toBe(page.events.length === 0 ? position : seq(page.events.at(-1)));
    if (!page.hasMore) return all;
    position = page.nextAfter;
  }
}

/** Seats a reservation on the first table, adds an item, then closes the order: a handful of events. */
async function activity(loc: TestLocation): Promise<void> {
  const seated = await loc.api
    .post(`${P}/reservations`)
    .send(reservation({ status: 'seated', tableIds: [loc.tables[0]], covers: 2 }))
    .expect(201);
  const orderId = seated.body.reservation.linkedOrderId as string;
  await h.operator
    .post(loc.ops(`/orders/${orderId}/items`))
    .send({ label: 'Soup', amountMinor: 900 })
    .expect(200);
  await h.operator.post(loc.ops(`/orders/${orderId}/close`)).expect(200);
}

/** Distinct verified bodies received at `path` with their webhook-id, by arrival. */
function received(path: string, secret: string): (Json & { id: string })[] {
  const seen = new Set<string>();
  const out: (Json & { id: string })[] = [];
  for (const request of receiver.at(path) as Received[]) {
    const id = String(request.headers['webhook-id']);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, ...verified(request, secret) });
  }
  return out;
}

async function register(loc: TestLocation, path: string, events?: string[]): Promise<string> {
  const res = await loc.api
    .put(`${P}/webhook-endpoint`)
    .send({ url: `${receiver.origin}${path}`, ...(events ? { events } : {}) })
    .expect(200);
  return res.body.secret as string;
}

/** Walk-ins on every table, opened and closed, until the location's last sequence passes `beyond`. */
async function walkInsBeyond(loc: TestLocation, beyond: number): Promise<number> {
  for (let round = 0; round < 100; round++) {
    const last = (await loc.api.get(`${P}/tables/state`).expect(200)).body.asOfSequence as number;
    if (last > beyond) return last;
    const order = await h.walkIn(loc, loc.tables);
    await h.operator.post(loc.ops(`/orders/${order['id']}/close`)).expect(200);
  }
  throw new Error(`the location never passed sequence ${beyond}`);
}

/** Waits until the relay has fanned out every event of the location to the endpoints. */
async function relayed(loc: TestLocation): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await h.db.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox_events WHERE location_id = $1 AND relayed_at IS NULL',
      [loc.id],
    );
    if (row.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${row.n} event(s) of the location were never relayed`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('GET /events', () => {
  it('When a location has events, then the feed lists each once in ascending sequence, page by page, with the body its deliveries carry', async () => {
    const loc = await h.location({ tables: 3 });
    const path = `/feed/${loc.id}`;
    const secret = await register(loc, path);
    await activity(loc);
    const all = await readFeed(loc);
    const delivered = await receiver.until(() => {
      const got = received(path, secret);
      return got.length >= all.length - 1 ? got : undefined;
    });

    expect(all.map(seq)).toEqual(all.map((_, i) => i + 1));
    expect(all[0]).toMatchObject({ type: 'floorplan.published', data: { version: 1 } });
    expect(await readFeed(loc, 0, 2)).toEqual(all);
    expect(await readFeed(loc, 3, 1)).toEqual(all.slice(3));
    // Every event after the publish (which happened before the endpoint existed) was delivered:
    // same id as the webhook-id, same body.
    for (const body of delivered) expect(all).toContainEqual(body);
    expect(delivered).toHaveLength(all.length - 1);
  });

  it('When types are given, then only those types come, in sequence; an empty page keeps nextAfter at after', async () => {
    const loc = await h.location({ tables: 3 });
    await activity(loc);

    const closed = await readFeed(loc, 0, 100, 'order.closed,table.freed');
    const past = (await loc.api.get(`${P}/events?after=1000`).expect(200)).body;

    expect(closed.map((e) => e.type)).toEqual(['table.freed', 'order.closed']);
    expect(seq(closed[1]!)).toBeGreaterThan(seq(closed[0]!));
    expect(past).toEqual({ events: [], nextAfter: 1000, hasMore: false, oldestRetainedSequence: 1 });
  });

  it.each([
    ['after=-1', '/after'],
    ['after=1.5', '/after'],
    ['after=abc', '/after'],
    ['limit=0', '/limit'],
    ['limit=1001', '/limit'],
    ['types=table.occupied,bogus', '/types'],
    ['types=', '/types'],
    ['cursor=x', '/cursor'],
  ])('When the query is %s, then 422 validation_failed names it', async (query, path) => {
    const loc = await h.location({ plan: 'none' });

    const body = expectEnvelope(await loc.api.get(`${P}/events?${query}`), 422, 'validation_failed');

    expect(body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
  });

  it('When the query is empty and the location has more than 100 events, then the first 100 come, sequences 1 to 100, with hasMore and nextAfter 100', async () => {
    const loc = await h.location({ tables: 10 });
    const last = await walkInsBeyond(loc, 100);

    const page = (await loc.api.get(`${P}/events`).expect(200)).body;
    const explicit = (await loc.api.get(`${P}/events?after=0&limit=100`).expect(200)).body;
    const all = await readFeed(loc, 0, 1000);

    expect(last).toBeGreaterThan(100);
    expect(page.events.map(seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(page).toEqual({
      events: all.slice(0, 100),
      nextAfter: 100,
      hasMore: true,
      oldestRetainedSequence: 1,
    });
    expect(explicit).toEqual(page);
    expect(all.map(seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  });

  it('When the endpoint subscribes to floorplan.published only, then the table events are still kept in the feed, and are not delivered', async () => {
    const loc = await h.location({ tables: 3 });
    const path = `/publish-only/${loc.id}`;
    const secret = await register(loc, path, ['floorplan.published']);
    const order = await h.walkIn(loc, [loc.tables[0]!]);
    await h.operator.post(loc.ops(`/orders/${order['id']}/close`)).expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
    await relayed(loc);
    await receiver.until(() =>
      received(path, secret).some((e) => (e.data as Json)['version'] === 2) ? true : undefined,
    );

    const feed = await readFeed(loc);
    const deliveries = (await loc.api.get(`${P}/webhook-deliveries?limit=500`).expect(200)).body.deliveries;

    expect(feed.map((e) => e.type)).toEqual([
      'floorplan.published',
      'table.occupied',
      'table.freed',
      'order.closed',
      'floorplan.published',
    ]);
    expect(feed.map(seq)).toEqual([1, 2, 3, 4, 5]);
    expect(feed.filter((e) => e.type !== 'floorplan.published').map((e) => e.data['orderId'])).toEqual([
      order['id'],
      order['id'],
      order['id'],
    ]);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.map((d: Json) => d['eventType'])).toEqual(deliveries.map(() => 'floorplan.published'));
    expect(received(path, secret).map((e) => e['type'])).toEqual(
      received(path, secret).map(() => 'floorplan.published'),
    );
  });

  it("When two locations have events, then each key reads only its own location's feed and state", async () => {
    const one = await h.location({ tables: 2 });
    const two = await h.location({ tables: 2 });
    await activity(one);

    const ids = new Set((await readFeed(one)).map((e) => e.id));
    const theirs = await readFeed(two);
    const state = (await two.api.get(`${P}/tables/state`).expect(200)).body;

    expect(theirs.every((e) => !ids.has(e.id))).toBe(true);
    expect(theirs.map((e) => e.type)).toEqual(['floorplan.published']);
    expect(state.tables.map((t: Json) => t['tableId']).sort()).toEqual([...two.tables].sort());
  });
});

describe('GET /tables/state', () => {
  it('When nothing is published, then 409 floorplan_not_published', async () => {
    const loc = await h.location({ plan: 'draft' });

    expectEnvelope(await loc.api.get(`${P}/tables/state`), 409, 'floorplan_not_published');
  });

  it('When a table is taken, then the state shows it occupied with its open order, the others free, as of the last sequence', async () => {
    const loc = await h.location({ tables: 3 });
    const body = reservation({ status: 'seated', tableIds: [loc.tables[1]], covers: 4 });
    const seated = await loc.api.post(`${P}/reservations`).send(body).expect(201);
    const orderId = seated.body.reservation.linkedOrderId as string;
    await h.operator
      .post(loc.ops(`/orders/${orderId}/service-status`))
      .send({ status: 'mains' })
      .expect(200);

    const state = (await loc.api.get(`${P}/tables/state`).expect(200)).body;
    const feed = await readFeed(loc);

    expect(state.asOfSequence).toBe(seq(feed.at(-1)!));
    expect(state.floorplanVersion).toBe(1);
    const order = (await h.openOrders(loc))[0]!;
    expect(state.tables).toEqual(
      loc.mapping.map((m) => ({
        tableId: m.tableId,
        label: m.label,
        roomId: expect.any(String),
        active: true,
        status: m.tableId === loc.tables[1] ? 'occupied' : 'free',
        order:
          m.tableId === loc.tables[1]
            ? {
                id: orderId,
                reservationExternalId: body['externalId'],
                covers: 4,
                spendMinor: 0,
                currency: loc.currency,
                openedAt: order['openedAt'],
                tableIds: [loc.tables[1]],
                serviceStatus: 'mains',
              }
            : null,
      })),
    );
  });
});

describe('GET /tables/state, the published plan', () => {
  it('When the working plan changes after a publish, then the state shows the published plan until the next publish; an order on two tables stands on both', async () => {
    const loc = await h.location({ tables: 4 });
    const [a, b, c] = loc.tables as [string, string, string];
    const published = loc.mapping.find((m) => m.tableId === c)!.label;
    await h.operator
      .patch(loc.ops(`/tables/${c}`))
      .send({ label: 'Terrace 9', active: false })
      .expect(200);
    const order = await h.walkIn(loc, [a, b]);

    const before = (await loc.api.get(`${P}/tables/state`).expect(200)).body;
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
    const after = (await loc.api.get(`${P}/tables/state`).expect(200)).body;

    const tableOf = (state: Json, id: string) =>
      (state['tables'] as Json[]).find((t) => t['tableId'] === id)!;
    expect([before.floorplanVersion, after.floorplanVersion]).toEqual([1, 2]);
    expect(tableOf(before, c)).toMatchObject({ label: published, active: true, status: 'free' });
    expect(tableOf(after, c)).toMatchObject({ label: 'Terrace 9', active: false, status: 'free' });
    for (const state of [before, after]) {
      // Every table of the plan, the deactivated one included (in the plan's order: by label).
      expect((state['tables'] as Json[]).map((t) => t['tableId']).sort()).toEqual([...loc.tables].sort());
      for (const id of [a, b]) {
        expect(tableOf(state, id)).toMatchObject({
          status: 'occupied',
          order: { id: order['id'], tableIds: [a, b] },
        });
      }
    }
  });
});

describe('POST /webhook-endpoint/recover', () => {
  it('When there is no endpoint, then 404 not_found', async () => {
    const loc = await h.location({ plan: 'none' });

    expectEnvelope(
      await loc.api.post(`${P}/webhook-endpoint/recover`).send({ afterSequence: 0 }),
      404,
      'not_found',
    );
  });

  it.each([
    ['neither', {}],
    ['both', { afterSequence: 0, since: '2026-11-21T19:00:00Z' }],
    ['a negative sequence', { afterSequence: -1 }],
    ['a bad date', { since: 'yesterday' }],
    ['an unknown field', { from: 0 }],
  ])('When the body has %s, then 422 validation_failed', async (_case, body) => {
    const loc = await h.location({ plan: 'none' });
    await register(loc, `/bad/${loc.id}`);

    expectEnvelope(await loc.api.post(`${P}/webhook-endpoint/recover`).send(body), 422, 'validation_failed');
  });

  it('When the endpoint was disabled, then recover is 422 validation_failed until a PUT enables it again', async () => {
    const loc = await h.location({ tables: 3 });
    const path = `/gone/${loc.id}`;
    await register(loc, path);
    receiver.status = (r) => (r.path === path ? 410 : 204);
    await activity(loc);
    const deadline = Date.now() + 10_000;
    while ((await loc.api.get(`${P}/webhook-endpoint`).expect(200)).body.status !== 'disabled') {
      if (Date.now() > deadline) throw new Error('the endpoint was not disabled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    receiver.status = () => 204;

    const refused = await loc.api.post(`${P}/webhook-endpoint/recover`).send({ afterSequence: 0 });
    await register(loc, path);
    const queued = await loc.api.post(`${P}/webhook-endpoint/recover`).send({ afterSequence: 0 }).expect(202);

    expect(expectEnvelope(refused, 422, 'validation_failed').error.message).toContain('disabled');
    expect(queued.body.queued).toBeGreaterThan(0);
  });

  it('When the receiver was down until every delivery failed for good, then the feed from the last sequence it saw and recover each bring back every event exactly once, in order, with the original ids', async () => {
    const loc = await h.location({ tables: 3 });
    const path = `/down/${loc.id}`;
    const secret = await register(loc, path);
    await activity(loc);
    await receiver.until(() => (received(path, secret).length >= 1 ? true : undefined));
    const lastSeen = Math.max(...received(path, secret).map(seq));
    receiver.status = (r) => (r.path === path ? 503 : 204);
    await activity(loc);
    const feed = await readFeed(loc);
    await eventuallyAllFailed(loc, feed.filter((e) => seq(e) > lastSeen).length);

    const missed = await readFeed(loc, lastSeen);
    receiver.status = () => 204;
    const before = receiver.at(path).length;
    const answer = await loc.api
      .post(`${P}/webhook-endpoint/recover`)
      .send({ afterSequence: lastSeen })
      .expect(202);
    const since = () => receiver.at(path).slice(before);
    await receiver.until(() => (since().length >= missed.length ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = since().map((r) => ({ id: String(r.headers['webhook-id']), ...verified(r, secret) }));

    expect(missed.map(seq)).toEqual(feed.filter((e) => seq(e) > lastSeen).map(seq));
    expect(answer.body).toEqual({ queued: missed.length });
    expect([...again].sort((a, b) => seq(a) - seq(b))).toEqual(missed);
  });

  it('When recover runs since an instant, then events raised before the endpoint existed come too, with their original ids', async () => {
    const loc = await h.location({ tables: 3 });
    await activity(loc);
    const feed = await readFeed(loc);
    const path = `/late/${loc.id}`;
    const secret = await register(loc, path);

    const answer = await loc.api
      .post(`${P}/webhook-endpoint/recover`)
      .send({ since: feed[0]!.timestamp })
      .expect(202);
    const got = await receiver.until(() => {
      const bodies = received(path, secret);
      return bodies.length >= answer.body.queued ? bodies : undefined;
    });

    const later = feed.filter((e) => Instant.parse(e.timestamp)!.isAfter(Instant.parse(feed[0]!.timestamp)!));
    expect(answer.body.queued).toBe(later.length);
    expect([...got].sort((a, b) => seq(a) - seq(b))).toEqual(later);
  });
});

describe('retention', () => {
  it('When events were pruned, then the feed and recover from before them answer 410 events_expired, and from after them carry on', async () => {
    const loc = await h.location({ tables: 3 });
    await register(loc, `/pruned/${loc.id}`);
    await activity(loc);
    const feed = await readFeed(loc);
    const { retention } = createPersistence(h.db.database, {
      cipher: { encrypt: (s) => s, decrypt: (s) => s },
    });
    const future = Instant.fromEpochMillis(Date.now() + 60_000);
    while ((await retention.prune(future, 1_000)) > 0);
    const last = seq(feed.at(-1)!);

    const body = expectEnvelope(await loc.api.get(`${P}/events?after=0`), 410, 'events_expired');
    const recover = await loc.api.post(`${P}/webhook-endpoint/recover`).send({ afterSequence: 0 });
    const fresh = (await loc.api.get(`${P}/events?after=${last}`).expect(200)).body;

    expect(body.error.message).toContain('tables/state');
    expectEnvelope(recover, 410, 'events_expired');
    expect(fresh).toEqual({ events: [], nextAfter: last, hasMore: false, oldestRetainedSequence: last + 1 });
    await activity(loc);
    const after = await readFeed(loc, last);
    expect(after.map(seq)).toEqual(after.map((_, i) => last + 1 + i));
  });

  it('When an API delivers without Redis, then its own retention loop prunes what is past EVENT_RETENTION_DAYS from its start', async () => {
    const loc = await h.location({ tables: 3 });
    await activity(loc);
    const feed = await readFeed(loc);
    // Relayed first: a relay holding the rows would make the first prune skip them (SKIP LOCKED).
    await relayed(loc);
    await h.db.dataSource.query(
      `UPDATE outbox_events SET created_at = created_at - interval '2 days' WHERE location_id = $1`,
      [loc.id],
    );

    const short = await Harness.beside(h, { EVENT_RETENTION_DAYS: '1' });
    try {
      await short.runtime.start();
      const deadline = Date.now() + 15_000;
      let answer = await loc.api.get(`${P}/events?after=0`);
      while (answer.status === 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await loc.api.get(`${P}/events?after=0`);
      }

      expectEnvelope(answer, 410, 'events_expired');
      const fresh = (await loc.api.get(`${P}/events?after=${seq(feed.at(-1)!)}`).expect(200)).body;
      expect(fresh.oldestRetainedSequence).toBe(seq(feed.at(-1)!) + 1);
    } finally {
      await short.stop();
    }
  });

  it('When only the oldest events were pruned, then after oldestRetainedSequence - 2 is 410 events_expired and after oldestRetainedSequence - 1 reads on from it', async () => {
    const loc = await h.location({ tables: 3 });
    await activity(loc);
    const feed = await readFeed(loc);
    const k = 4;
    await pruneThrough(loc, k - 1);

    const expired = expectEnvelope(await loc.api.get(`${P}/events?after=${k - 2}`), 410, 'events_expired');
    const kept = (await loc.api.get(`${P}/events?after=${k - 1}&limit=1000`).expect(200)).body;
    await register(loc, `/partly-pruned/${loc.id}`);
    const refused = await loc.api.post(`${P}/webhook-endpoint/recover`).send({ afterSequence: k - 2 });
    const queued = await loc.api
      .post(`${P}/webhook-endpoint/recover`)
      .send({ afterSequence: k - 1 })
      .expect(202);

    expect(feed.length).toBeGreaterThan(k);
    expect(expired.error.message).toContain('tables/state');
    expect(kept).toEqual({
      events: feed.slice(k - 1),
      nextAfter: seq(feed.at(-1)!),
      hasMore: false,
      oldestRetainedSequence: k,
    });
    expect(kept.events[0].data.locationEventSequence).toBe(k);
    expectEnvelope(refused, 410, 'events_expired');
    expect(queued.body).toEqual({ queued: feed.length - (k - 1) });
  });
});

/**
 * Prunes the location's events 1..`through` alone: backdates them a day (well inside
 * EVENT_RETENTION_DAYS, so the API's own retention loop leaves them) and prunes what is older
 * than an hour, again while the API's loop holds the prune lock.
 */
async function pruneThrough(loc: TestLocation, through: number): Promise<void> {
  await h.db.dataSource.query(
    `UPDATE outbox_events SET created_at = created_at - interval '1 day' WHERE location_id = $1 AND sequence <= $2`,
    [loc.id, through],
  );
  const { retention } = createPersistence(h.db.database, {
    cipher: { encrypt: (s) => s, decrypt: (s) => s },
  });
  const hourAgo = Instant.fromEpochMillis(Date.now() - 3_600_000);
  const deadline = Date.now() + 10_000;
  for (;;) {
    await retention.prune(hourAgo, 1_000);
    const page = (await loc.api.get(`${P}/events?after=${through}&limit=1`).expect(200)).body;
    if (page.oldestRetainedSequence === through + 1) return;
    if (Date.now() > deadline) throw new Error(`the prune never reached sequence ${through}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the location's deliveries are all failed for good (`count` of them at least). */
async function eventuallyAllFailed(loc: TestLocation, count: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const failed = (await loc.api.get(`${P}/webhook-deliveries?status=failed&limit=500`).expect(200)).body
      .deliveries.length;
    const pending = (await loc.api.get(`${P}/webhook-deliveries?status=pending&limit=500`).expect(200)).body
      .deliveries.length;
    if (failed >= count && pending === 0) return;
    if (Date.now() > deadline)
      throw new Error(`deliveries did not all fail: ${failed} failed, ${pending} pending`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
