import { randomUUID } from 'node:crypto';
import { operations, type OperationSpec } from '@pis/contract';
import { ManualClock } from '@pis/testing';
import type { Response, Test } from 'supertest';
import { expectEnvelope } from './support/envelope';
import { operationWorld, requestOf, simulated, type OperationWorld } from './support/every-operation';
import { Harness, type TestLocation } from './support/harness';
import { fullGuest, P, reservation, type Json } from './support/wire';

/**
 * docs/reference/limits-and-formats.md#idempotency-keys: `Idempotency-Key` on every provider and
 * backoffice POST. The first answer is kept for 24 hours per key, credential and location and
 * replayed with `Idempotent-Replayed: true` for the same request, changing nothing; another
 * request under the key is 422 idempotency_key_reused; while the first runs, 409
 * idempotency_in_progress. Kept answers are encrypted at rest and pruned after their 24 hours.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const withKey = (test: Test, key: string): Test => test.set('Idempotency-Key', key);
const replayed = (res: Response) => res.headers['idempotent-replayed'];
const WINDOW = 'from=2026-11-21T00:00Z&to=2026-11-22T00:00Z';

async function reservationsOf(loc: TestLocation): Promise<Json[]> {
  return (await loc.api.get(`${P}/reservations?${WINDOW}`).expect(200)).body.reservations;
}

async function occupiedEvents(loc: TestLocation): Promise<Json[]> {
  const feed = (await loc.api.get(`${P}/events?after=0&limit=1000&types=table.occupied`).expect(200)).body;
  return feed.events;
}

/** The stored rows of one key, as the table holds them. */
function rowsOf(key: string): Promise<Json[]> {
  return h.db.dataSource.query(
    `SELECT row_to_json(k)::text AS row, k.* FROM idempotency_keys k WHERE key = $1`,
    [key],
  );
}

describe('replay', () => {
  it('When a reservation POST is sent again with its key, then the first answer comes back marked replayed and one reservation exists', async () => {
    const loc = await h.location({ plan: 'none' });
    const body = reservation();
    const key = randomUUID();

    const first = await withKey(loc.api.post(`${P}/reservations`), key)
      .send(body)
      .expect(201);
    const again = await withKey(loc.api.post(`${P}/reservations`), key)
      .send(body)
      .expect(201);

    expect(replayed(first)).toBeUndefined();
    expect(replayed(again)).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await reservationsOf(loc)).toHaveLength(1);
  });

  it('When a walk-in POST is replayed, then the same order comes back, one order is open and one table.occupied event was written', async () => {
    const loc = await h.location({ tables: 2 });
    const key = randomUUID();
    const walkIn = () =>
      withKey(h.operator.post(loc.ops('/orders')), key).send({ tableIds: [loc.tables[0]], covers: 2 });

    const first = await walkIn().expect(201);
    const again = await walkIn().expect(201);
    const third = await walkIn().expect(201);

    expect([replayed(again), replayed(third)]).toEqual(['true', 'true']);
    expect(again.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect((await h.openOrders(loc)).map((o) => o['id'])).toEqual([first.body.id]);
    expect(await occupiedEvents(loc)).toHaveLength(1);
  });

  it('When a refusal is sent again with its key, then the refusal is replayed even after its cause is gone', async () => {
    const loc = await h.location({ tables: 2 });
    const standing = await h.walkIn(loc, [loc.tables[0]!]);
    const key = randomUUID();
    const walkIn = () =>
      withKey(h.operator.post(loc.ops('/orders')), key).send({ tableIds: [loc.tables[0]], covers: 4 });

    const refused = expectEnvelope(await walkIn(), 409, 'table_occupied');
    await h.operator.post(loc.ops(`/orders/${standing['id']}/close`)).expect(200);
    const again = await walkIn();

    expect(expectEnvelope(again, 409, 'table_occupied')).toEqual(refused);
    expect(replayed(again)).toBe('true');
    expect(await h.openOrders(loc)).toEqual([]);
  });

  it('When the same body comes with its properties in another order and other spacing, then it is the same request and is replayed', async () => {
    const loc = await h.location({ plan: 'none' });
    const body = reservation({ partyName: 'Ada', guest: fullGuest() });
    const key = randomUUID();
    const reversed = (value: unknown): unknown =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([k, v]) => [k, reversed(v)]),
          )
        : value;
    const reordered = reversed(body);

    const first = await withKey(loc.api.post(`${P}/reservations`), key)
      .send(body)
      .expect(201);
    const again = await withKey(loc.api.post(`${P}/reservations`), key)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(reordered, null, 2))
      .expect(201);

    expect(replayed(again)).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('When a POST without a body is sent again with its key, then its answer is replayed and nothing ran twice', async () => {
    const loc = await h.location({ plan: 'none' });
    await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/hook' }).expect(200);
    const key = randomUUID();

    const first = await withKey(loc.api.post(`${P}/webhook-endpoint/rotate-secret`), key).expect(200);
    const again = await withKey(loc.api.post(`${P}/webhook-endpoint/rotate-secret`), key).expect(200);
    const current = await loc.api.get(`${P}/webhook-endpoint`).expect(200);

    expect(replayed(again)).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(current.body.secret).toBe(first.body.secret);
  });

  it('When no key is sent, then a POST behaves as before: a second identical one runs again and nothing is kept', async () => {
    const loc = await h.location({ plan: 'none' });
    const body = reservation();
    const [{ n: before }] = await h.db.dataSource.query(`SELECT count(*)::int AS n FROM idempotency_keys`);

    const first = await loc.api.post(`${P}/reservations`).send(body).expect(201);
    const second = await loc.api.post(`${P}/reservations`).send(body);
    const [{ n: after }] = await h.db.dataSource.query(`SELECT count(*)::int AS n FROM idempotency_keys`);

    expect(replayed(first)).toBeUndefined();
    expectEnvelope(second, 409, 'duplicate_reservation');
    expect(replayed(second)).toBeUndefined();
    expect(after).toBe(before);
  });
});

describe('reuse and scope', () => {
  it('When the key comes back with another body, then it is 422 idempotency_key_reused and nothing is created', async () => {
    const loc = await h.location({ plan: 'none' });
    const key = randomUUID();
    await withKey(loc.api.post(`${P}/reservations`), key)
      .send(reservation())
      .expect(201);

    const other = await withKey(loc.api.post(`${P}/reservations`), key).send(reservation());

    const body = expectEnvelope(other, 422, 'idempotency_key_reused');
    expect(body.error.message).toContain('different request');
    expect(replayed(other)).toBeUndefined();
    expect(await reservationsOf(loc)).toHaveLength(1);
  });

  it('When the key comes back on another path or method, then it is 422 idempotency_key_reused', async () => {
    const loc = await h.location({ tables: 2 });
    const key = randomUUID();
    const order = await withKey(h.operator.post(loc.ops('/orders')), key)
      .send({ tableIds: [loc.tables[0]], covers: 2 })
      .expect(201);

    const item = await withKey(h.operator.post(loc.ops(`/orders/${order.body.id}/items`)), key).send({
      label: 'Soup',
      amountMinor: 450,
    });
    const close = await withKey(h.operator.post(loc.ops(`/orders/${order.body.id}/close`)), key);

    expectEnvelope(item, 422, 'idempotency_key_reused');
    expectEnvelope(close, 422, 'idempotency_key_reused');
    expect((await h.openOrders(loc))[0]!['check']).toMatchObject({ items: [] });
  });

  it('When two locations or the two surfaces use one key, then each has a key of its own', async () => {
    const one = await h.location({ plan: 'none' });
    const two = await h.location({ plan: 'none' });
    const key = randomUUID();

    const a = await withKey(one.api.post(`${P}/reservations`), key)
      .send(reservation())
      .expect(201);
    const b = await withKey(two.api.post(`${P}/reservations`), key)
      .send(reservation())
      .expect(201);
    const c = await withKey(h.operator.post(one.ops('/api-keys')), key).expect(201);

    expect([replayed(a), replayed(b), replayed(c)]).toEqual([undefined, undefined, undefined]);
    expect(await reservationsOf(one)).toHaveLength(1);
    expect(await reservationsOf(two)).toHaveLength(1);
  });

  it('When a second key of the same location sends the key, then it is another credential and runs on its own', async () => {
    const loc = await h.location({ plan: 'none' });
    const spare = (await h.operator.post(loc.ops('/api-keys')).expect(201)).body.key as string;
    const key = randomUUID();

    await withKey(loc.api.post(`${P}/reservations`), key)
      .send(reservation())
      .expect(201);
    const other = await withKey(h.client(spare).post(`${P}/reservations`), key)
      .send(reservation())
      .expect(201);

    expect(replayed(other)).toBeUndefined();
    expect(await reservationsOf(loc)).toHaveLength(2);
  });
});

describe('invalid keys', () => {
  it.each([
    ['empty', ''],
    ['256 characters long', 'k'.repeat(256)],
    ['with a tab', 'abc\tdef'],
    ['with a character outside ASCII', 'caf\u00e9'],
  ])(
    'When the Idempotency-Key is %s, then it is 422 validation_failed naming the rule, and nothing runs',
    async (_case, key) => {
      const loc = await h.location({ plan: 'none' });

      const res = await loc.api.post(`${P}/reservations`).set('Idempotency-Key', key).send(reservation());

      const body = expectEnvelope(res, 422, 'validation_failed');
      expect(body.error.message).toContain('Idempotency-Key must be 1 to 255 printable ASCII characters');
      expect(await reservationsOf(loc)).toEqual([]);
    },
  );

  it('When the Idempotency-Key is sent twice, then it is 422 validation_failed', async () => {
    const loc = await h.location({ plan: 'none' });

    const res = await loc.api
      .post(`${P}/reservations`)
      .set('Idempotency-Key', ['a', 'b'] as unknown as string) // two header lines
      .send(reservation());

    expect(expectEnvelope(res, 422, 'validation_failed').error.message).toContain('sent once');
    expect(await reservationsOf(loc)).toEqual([]);
  });

  it('When the Idempotency-Key is 255 printable characters with spaces and symbols, then it is accepted', async () => {
    const loc = await h.location({ plan: 'none' });
    const key = `a ~!"#{}|\\${randomUUID()}`.padEnd(255, '~');
    const body = reservation();

    await withKey(loc.api.post(`${P}/reservations`), key)
      .send(body)
      .expect(201);
    const again = await withKey(loc.api.post(`${P}/reservations`), key)
      .send(body)
      .expect(201);

    expect(replayed(again)).toBe('true');
  });

  it('When a request without a credential sends a key, then authentication answers first and nothing is kept', async () => {
    const key = randomUUID();

    const res = await withKey(h.anonymous.post(`${P}/reservations`), key).send(reservation());

    expectEnvelope(res, 401, 'unauthorized');
    expect(await rowsOf(key)).toEqual([]);
  });
});

describe('concurrency', () => {
  it('When 10 identical first requests race with one key, then exactly one runs; the others are 409 idempotency_in_progress or its replay', async () => {
    const loc = await h.location({ plan: 'none' });
    const body = reservation();
    const key = randomUUID();

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => withKey(loc.api.post(`${P}/reservations`), key).send(body)),
    );

    const ran = answers.filter((a) => a.status === 201 && replayed(a) === undefined);
    expect(ran).toHaveLength(1);
    for (const answer of answers.filter((a) => a !== ran[0])) {
      if (answer.status === 409) expectEnvelope(answer, 409, 'idempotency_in_progress');
      else
        expect({ status: answer.status, replayed: replayed(answer), body: answer.body }).toEqual({
          status: 201,
          replayed: 'true',
          body: ran[0]!.body,
        });
    }
    expect(await reservationsOf(loc)).toHaveLength(1);
  });

  it('When 10 walk-ins race with one key, then one order opens and one table.occupied event is written', async () => {
    const loc = await h.location({ tables: 2 });
    const key = randomUUID();

    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        withKey(h.operator.post(loc.ops('/orders')), key).send({ tableIds: [loc.tables[1]], covers: 3 }),
      ),
    );

    expect(answers.filter((a) => a.status === 201 && replayed(a) === undefined)).toHaveLength(1);
    expect(answers.every((a) => a.status === 201 || a.body.error?.code === 'idempotency_in_progress')).toBe(
      true,
    );
    expect(await h.openOrders(loc)).toHaveLength(1);
    expect(await occupiedEvents(loc)).toHaveLength(1);
  });

  it('When the first request is held up, then the same request meanwhile is 409 idempotency_in_progress, another is 422, and once the first answers it is replayed', async () => {
    const loc = await h.location({ tables: 2 });
    const key = randomUUID();
    const walkIn = (covers: number) =>
      withKey(h.operator.post(loc.ops('/orders')), key).send({ tableIds: [loc.tables[0]], covers });
    const holder = h.db.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let first: Promise<Response> | null = null;
    try {
      // The walk-in claims its table's row: holding it keeps the first request running.
      await holder.query(`SELECT id FROM dining_tables WHERE id = $1 FOR UPDATE`, [loc.tables[0]]);
      first = walkIn(2).then((res) => res);
      await someoneWaitsForALock();

      const meanwhile = await walkIn(2);
      const different = await walkIn(5);

      expect(expectEnvelope(meanwhile, 409, 'idempotency_in_progress').error.message).toContain(
        'still running',
      );
      expectEnvelope(different, 422, 'idempotency_key_reused');
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    const answered = await first!;
    const after = await walkIn(2);

    expect(answered.status).toBe(201);
    expect(replayed(after)).toBe('true');
    expect(after.body).toEqual(answered.body);
    expect(await h.openOrders(loc)).toHaveLength(1);
  });

  it('When the process that ran a first request died before answering, then the key stays in progress until its hold lapses, and a retry then runs it again', async () => {
    const loc = await h.location({ plan: 'none' });
    const body = reservation();
    const key = randomUUID();
    const send = () => withKey(loc.api.post(`${P}/reservations`), key).send(body);
    await send().expect(201);
    // What a process that died after the write and before keeping its answer leaves behind.
    await h.db.dataSource.query(
      `UPDATE idempotency_keys SET response_status = NULL, response_body = NULL, claim = 'dead',
              locked_until = now() + interval '1 hour' WHERE key = $1`,
      [key],
    );

    const whileHeld = await send();
    await h.db.dataSource.query(
      `UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`,
      [key],
    );
    const afterLapse = await send();
    const again = await send();

    expectEnvelope(whileHeld, 409, 'idempotency_in_progress');
    // It ran again: the reservation POST's own rule keeps the second run from creating another.
    expectEnvelope(afterLapse, 409, 'duplicate_reservation');
    expect(replayed(afterLapse)).toBeUndefined();
    expect(replayed(again)).toBe('true');
    expect(await reservationsOf(loc)).toHaveLength(1);
  });
});

describe('secrets in kept answers', () => {
  it('When an issued API key is kept, then the table holds it only encrypted and the replay shows the same key', async () => {
    const loc = await h.location({ plan: 'none' });
    const key = randomUUID();

    const first = await withKey(h.operator.post(loc.ops('/api-keys')), key).expect(201);
    const again = await withKey(h.operator.post(loc.ops('/api-keys')), key).expect(201);
    const rows = await rowsOf(key);

    expect(again.body).toEqual(first.body);
    expect(rows).toHaveLength(1);
    expect(rows[0]!['response_body']).toMatch(/^v1\./);
    expect(rows[0]!['row']).not.toContain(first.body.key);
    expect(rows[0]!['row']).not.toContain(String(first.body.key).slice(-40));
    expect(rows[0]!['row']).not.toContain(first.body.id);
  });

  it('When a webhook secret is kept, then the table holds it only encrypted', async () => {
    const loc = await h.location({ plan: 'none' });
    await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/hook' }).expect(200);
    const key = randomUUID();

    const rotated = await withKey(loc.api.post(`${P}/webhook-endpoint/rotate-secret`), key).expect(200);
    const [row] = await rowsOf(key);

    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(row!['row']).not.toContain(rotated.body.secret);
    expect(row!['row']).not.toContain(String(rotated.body.secret).slice('whsec_'.length));
    expect(row!['row']).not.toContain('whsec_');
  });
});

describe('every POST', () => {
  let world: OperationWorld;
  let every: Harness;
  beforeAll(async () => {
    every = await Harness.start({ WEBHOOK_TIMEOUT_MS: '1000' });
    world = await operationWorld(every, 'idem-1');
  });
  afterAll(async () => {
    await every?.stop();
  });

  const posts = operations.filter((op) => op.method === 'post');
  const named = posts.map((op) => [`${op.operationId} (POST ${op.path})`, op] as const);

  function tokenOf(op: OperationSpec): string {
    if (op.security === 'backofficeToken') return every.operator.token!;
    return simulated(op) ? world.sandbox.key : world.loc.key;
  }

  it('When the contract is read, then every POST is a provider or backoffice operation (none is left out below)', () => {
    expect(posts.length).toBeGreaterThan(20);
    expect(posts.every((op) => op.security === 'providerKey' || op.security === 'backofficeToken')).toBe(
      true,
    );
  });

  // In the contract's order on shared state: whatever the first answer is, the second with the
  // same key and request is that answer again.
  it.each(named)(
    'When %s is sent twice with one key, then the second is the first answer, replayed',
    async (_name, op) => {
      const key = randomUUID();
      const { path, body } = requestOf(world, op);
      const send = () => {
        const test = withKey(every.client(tokenOf(op)).post(path), key);
        return body === undefined ? test : test.send(body);
      };

      const first = await send();
      const again = await send();

      expect(first.status).toBeLessThan(500);
      expect(replayed(first)).toBeUndefined();
      expect({ status: again.status, replayed: replayed(again), body: again.body }).toEqual({
        status: first.status,
        replayed: 'true',
        body: first.body,
      });
    },
  );
});

describe('retention', () => {
  it('When 24 hours have passed, then a key no longer replays, and retention deletes what it kept', async () => {
    const clock = new ManualClock(new Date().toISOString());
    const own = await Harness.start({}, { clock });
    try {
      const loc = await own.location({ plan: 'none' });
      const renewed = randomUUID();
      const pruned = randomUUID();
      const body = reservation();
      await withKey(loc.api.post(`${P}/reservations`), renewed)
        .send(body)
        .expect(201);
      await withKey(loc.api.post(`${P}/reservations`), pruned)
        .send(reservation())
        .expect(201);

      clock.advance(24 * 3_600_000);
      const fresh = await withKey(loc.api.post(`${P}/reservations`), renewed)
        .send(reservation())
        .expect(201);
      await own.runtime.start();
      const deadline = Date.now() + 15_000;
      while ((await ownRows(own, pruned)).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      expect(replayed(fresh)).toBeUndefined();
      expect(await ownRows(own, pruned)).toEqual([]);
      expect(await ownRows(own, renewed)).toHaveLength(1);
      expect(await reservationsOf(loc)).toHaveLength(3);
    } finally {
      await own.stop();
    }
  });
});

function ownRows(harness: Harness, key: string): Promise<Json[]> {
  return harness.db.dataSource.query(`SELECT key FROM idempotency_keys WHERE key = $1`, [key]);
}

/** Until a backend of the test database waits for a row lock. */
async function someoneWaitsForALock(): Promise<void> {
  for (;;) {
    const [row] = await h.db.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (row.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
