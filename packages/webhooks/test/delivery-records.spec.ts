import { DeliveryRecords, OutboxRelay, type ClaimedDelivery } from '../src';
import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  requestRedelivery,
  type Harness,
} from './support/harness';

const LEASE_MS = 60_000;

describe('DeliveryRecords', () => {
  let h: Harness;
  let records: DeliveryRecords;

  beforeAll(async () => {
    h = await openHarness();
    records = new DeliveryRecords(h.db.dataSource, LEASE_MS);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A location with an endpoint and `n` relayed events: `n` pending deliveries, due now. */
  async function givenPendingDeliveries(n: number): Promise<{ locationId: string; ids: string[] }> {
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, 'https://hooks.provider.example/hooks');
    await appendEvents(h, locationId, occupiedEvents(n));
    const relay = new OutboxRelay(h.db.dataSource);
    while ((await relay.relayBatch()).events === relay.size);
    return { locationId, ids: (await deliveries(h, locationId)).map((d) => d.id) };
  }

  const secondsUntilDue = async (id: string) =>
    (
      (await h.db.dataSource.query(
        `SELECT extract(epoch FROM next_attempt_at - clock_timestamp())::float8 AS s FROM webhook_deliveries WHERE id = $1`,
        [id],
      )) as { s: number }[]
    )[0]!.s;

  it('When a due delivery is claimed by id, then it is handed out with a lease that keeps a second claim off', async () => {
    const { ids, locationId } = await givenPendingDeliveries(1);

    const first = await records.claimById(ids[0]!, 0);
    const second = await records.claimById(ids[0]!, 0);

    expect(first).toEqual({
      kind: 'claimed',
      delivery: expect.objectContaining({
        id: ids[0],
        locationId,
        event: expect.objectContaining({ type: 'table.occupied', locationId, sequence: 1 }),
        generation: 0,
        attemptCount: 0,
      }),
    });
    expect(second).toEqual({ kind: 'not-due', dueAt: expect.any(Number) });
    expect(second.kind === 'not-due' && second.dueAt - Date.now()).toBeGreaterThan(LEASE_MS - 5_000);
    expect(await secondsUntilDue(ids[0]!)).toBeGreaterThan(LEASE_MS / 1000 - 5);
  });

  it.each([
    ['no such delivery', 'gone'],
    ['a delivery already settled', 'settled'],
    ['a job of an older generation (redelivered since)', 'superseded'],
  ])('When a job names %s, then there is nothing to do: %s', async (_case, why) => {
    const { ids, locationId } = await givenPendingDeliveries(1);
    let [id, generation] = [ids[0]!, 0];
    if (why === 'gone') id = '00000000-0000-4000-8000-000000000000';
    if (why === 'settled')
      await h.db.dataSource.query(`UPDATE webhook_deliveries SET status = 'succeeded' WHERE id = $1`, [id]);
    if (why === 'superseded') await requestRedelivery(h, locationId, id);

    expect(await records.claimById(id, generation)).toEqual({ kind: 'nothing-to-do', why });
  });

  it('When the poller claims due deliveries, then it takes at most its limit, and a second poller takes the rest', async () => {
    // Deliveries other tests left due would be claimed too: move them out of the way.
    await h.db.dataSource.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE status = 'pending'`,
    );
    const { ids } = await givenPendingDeliveries(5);
    const mine = (claimed: ClaimedDelivery[]) => claimed.filter((c) => ids.includes(c.id));

    const first = mine(await records.claimDue(3));
    const second = mine(await records.claimDue(100));
    const third = mine(await records.claimDue(100));

    expect(first).toHaveLength(3);
    expect(second).toHaveLength(2);
    expect(new Set([...first, ...second].map((c) => c.id))).toEqual(new Set(ids));
    expect(third).toEqual([]);
  });

  it('When an attempt is recorded as a retry, then the attempt row is written and the delivery waits the delay', async () => {
    const { ids, locationId } = await givenPendingDeliveries(1);
    const claim = await records.claimById(ids[0]!, 0);
    if (claim.kind !== 'claimed') throw new Error('not claimed');

    await records.recordAttempt(
      claim.delivery,
      new Date(),
      { status: 502, durationMs: 12, error: 'the receiver answered 502', retryAfterMs: null },
      { kind: 'retry', delayMs: 30_000 },
    );

    const [delivery] = await deliveries(h, locationId);
    expect(delivery).toMatchObject({ status: 'pending' });
    expect(delivery!.attempts).toEqual([
      {
        attemptedAt: expect.anything(),
        responseStatus: 502,
        durationMs: 12,
        error: 'the receiver answered 502',
      },
    ]);
    expect(await secondsUntilDue(ids[0]!)).toBeGreaterThan(25);
    expect(await secondsUntilDue(ids[0]!)).toBeLessThan(31);
  });

  it('When a 410 is recorded, then the delivery fails and its endpoint is disabled', async () => {
    const { ids, locationId } = await givenPendingDeliveries(1);
    const claim = await records.claimById(ids[0]!, 0);
    if (claim.kind !== 'claimed') throw new Error('not claimed');

    await records.recordAttempt(
      claim.delivery,
      new Date(),
      { status: 410, durationMs: 3, error: 'the receiver answered 410', retryAfterMs: null },
      { kind: 'failed', disableEndpoint: true },
    );

    expect((await deliveries(h, locationId))[0]).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect((await h.persistence.queries.webhooks.findEndpoint(locationId))!.disabledAt).not.toBeNull();
  });

  it('When a redelivery was requested during an attempt, then the attempt is recorded but the new generation stays pending', async () => {
    const { ids, locationId } = await givenPendingDeliveries(1);
    const claim = await records.claimById(ids[0]!, 0);
    if (claim.kind !== 'claimed') throw new Error('not claimed');
    await requestRedelivery(h, locationId, ids[0]!);

    await records.recordAttempt(
      claim.delivery,
      new Date(),
      { status: 500, durationMs: 3, error: 'the receiver answered 500', retryAfterMs: null },
      { kind: 'failed', disableEndpoint: false },
    );

    const [delivery] = await deliveries(h, locationId);
    expect(delivery).toMatchObject({ status: 'pending' });
    expect(delivery!.attempts).toHaveLength(1);
    expect(await records.claimById(ids[0]!, 1)).toMatchObject({ kind: 'claimed' });
  });

  it('When the poller claims a redelivered generation, then its attempt count starts over', async () => {
    const { ids, locationId } = await givenPendingDeliveries(1);
    await h.db.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempt_count = 3, queued_generation = 0 WHERE id = $1`,
      [ids[0]],
    );
    await requestRedelivery(h, locationId, ids[0]!);

    const claimed = (await records.claimDue(100)).find((c) => c.id === ids[0]);

    expect(claimed).toMatchObject({ generation: 1, attemptCount: 0 });
  });
});
