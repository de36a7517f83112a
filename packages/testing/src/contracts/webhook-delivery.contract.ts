import { randomUUID } from 'node:crypto';
import { Instant, type DeliveryStatus, type WebhookDelivery } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import { commit, useAdapters, type InspectableAdapterSet, type MakeInspectableAdapters } from './adapter-set';
import { givenLocationRow } from './fixtures';
import { anEvent } from './outbox.contract';

/**
 * `WebhookQueries.listDeliveries` and `WebhookDeliveryRepository.requestRedelivery`. No port
 * writes deliveries (the relay's adapter does), so the suite seeds them through the owner's hook.
 */
export function describeWebhookDeliveryContract(name: string, make: MakeInspectableAdapters): void {
  describe(`${name}: webhook delivery contract`, () => {
    const adapters = useAdapters(make);

    /** Seeds one delivery per given (status, createdAt), each for a fresh committed event. */
    async function givenDeliveries(
      set: InspectableAdapterSet,
      locationId: string,
      rows: { status: DeliveryStatus; createdAt: Instant }[],
    ): Promise<WebhookDelivery[]> {
      const events = await commit(set.uow, (tx) =>
        tx.outbox.append(
          locationId,
          rows.map((_, i) => anEvent(i)),
        ),
      );
      const endpointId = randomUUID();
      const deliveries = rows.map(({ status, createdAt }, i): WebhookDelivery => ({
        id: randomUUID(),
        locationId,
        endpointId,
        eventId: events[i]!.id,
        eventType: events[i]!.type,
        sequence: events[i]!.sequence,
        status,
        attempts:
          status === 'pending'
            ? []
            : [
                {
                  attemptedAt: createdAt.plusMicros(1_000_001n),
                  responseStatus: status === 'failed' ? 500 : 204,
                  durationMs: 42,
                  error: status === 'failed' ? 'the receiver answered 500' : null,
                },
              ],
        nextAttemptAt: status === 'pending' ? createdAt.plusMicros(5_000_000n) : null,
        createdAt,
        updatedAt: createdAt.plusMicros(2_000_000n),
      }));
      for (const delivery of deliveries) await set.seedDelivery(delivery);
      return deliveries;
    }

    const newestFirst = (a: WebhookDelivery, b: WebhookDelivery) =>
      b.createdAt.compare(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

    it('When deliveries are listed, then they come newest first (createdAt, then id), field for field', async () => {
      const set = adapters();
      const location = await givenLocationRow(set.uow);
      const same = at('2026-11-21T19:00:00.000001Z');
      const deliveries = await givenDeliveries(set, location.id, [
        { status: 'succeeded', createdAt: at('2026-11-21T18:00:00Z') },
        { status: 'failed', createdAt: same },
        { status: 'pending', createdAt: same },
        { status: 'succeeded', createdAt: at('2026-11-21T20:00:00Z') },
      ]);

      const listed = await set.queries.webhooks.listDeliveries({
        locationId: location.id,
        status: null,
        after: null,
        limit: 10,
      });

      expect(listed).toStrictEqual([...deliveries].sort(newestFirst));
    });

    it('When deliveries are listed by status, then only that status comes back', async () => {
      const set = adapters();
      const location = await givenLocationRow(set.uow);
      const deliveries = await givenDeliveries(set, location.id, [
        { status: 'failed', createdAt: at('2026-11-21T18:00:00Z') },
        { status: 'succeeded', createdAt: at('2026-11-21T18:01:00Z') },
        { status: 'failed', createdAt: at('2026-11-21T18:02:00Z') },
      ]);

      const failed = await set.queries.webhooks.listDeliveries({
        locationId: location.id,
        status: 'failed',
        after: null,
        limit: 10,
      });

      expect(failed.map((d) => d.id)).toEqual([deliveries[2]!.id, deliveries[0]!.id]);
    });

    it('When a cursor and a limit are given, then the listing resumes strictly after the cursor and stops at the limit', async () => {
      const set = adapters();
      const location = await givenLocationRow(set.uow);
      const same = at('2026-11-21T19:00:00Z');
      const deliveries = (
        await givenDeliveries(set, location.id, [
          { status: 'succeeded', createdAt: same },
          { status: 'succeeded', createdAt: same },
          { status: 'succeeded', createdAt: same },
          { status: 'succeeded', createdAt: at('2026-11-21T18:00:00Z') },
        ])
      ).sort(newestFirst);
      const list = (after: WebhookDelivery | null) =>
        set.queries.webhooks.listDeliveries({
          locationId: location.id,
          status: null,
          after: after && { createdAt: after.createdAt, id: after.id },
          limit: 2,
        });

      const first = await list(null);
      const second = await list(first[1]!);
      const third = await list(second[1]!);

      expect([first, second, third].map((page) => page.map((d) => d.id))).toEqual([
        deliveries.slice(0, 2).map((d) => d.id),
        deliveries.slice(2, 4).map((d) => d.id),
        [],
      ]);
    });

    it('When another location has deliveries, then they are neither listed nor redelivered', async () => {
      const set = adapters();
      const mine = await givenLocationRow(set.uow);
      const theirs = await givenLocationRow(set.uow);
      const [foreign] = await givenDeliveries(set, theirs.id, [
        { status: 'failed', createdAt: at('2026-11-21T18:00:00Z') },
      ]);

      const listed = await set.queries.webhooks.listDeliveries({
        locationId: mine.id,
        status: null,
        after: null,
        limit: 10,
      });
      const answer = await commit(set.uow, (tx) =>
        tx.webhookDeliveries.requestRedelivery(mine.id, foreign!.id),
      );

      expect(listed).toEqual([]);
      expect(answer).toBe(false);
      const theirsNow = await set.queries.webhooks.listDeliveries({
        locationId: theirs.id,
        status: null,
        after: null,
        limit: 10,
      });
      expect(theirsNow).toStrictEqual([foreign]);
    });

    it("When a failed delivery is redelivered, then it is pending again, due now on the store's clock, its attempts kept", async () => {
      const set = adapters();
      const location = await givenLocationRow(set.uow);
      const [failed] = await givenDeliveries(set, location.id, [
        { status: 'failed', createdAt: at('2026-11-21T18:00:00Z') },
      ]);
      const before = Instant.fromEpochMillis(Date.now() - 1_000);

      const answer = await commit(set.uow, (tx) =>
        tx.webhookDeliveries.requestRedelivery(location.id, failed!.id),
      );

      expect(answer).toBe(true);
      const [after] = await set.queries.webhooks.listDeliveries({
        locationId: location.id,
        status: null,
        after: null,
        limit: 10,
      });
      const now = after!.nextAttemptAt!;
      expect(now.isAfter(before) && Instant.fromEpochMillis(Date.now() + 1_000).isAfter(now)).toBe(true);
      expect(after).toStrictEqual({ ...failed, status: 'pending', nextAttemptAt: now, updatedAt: now });
    });

    it('When an unknown delivery is redelivered, then the answer is false', async () => {
      const set = adapters();
      const location = await givenLocationRow(set.uow);

      expect(
        await commit(set.uow, (tx) => tx.webhookDeliveries.requestRedelivery(location.id, randomUUID())),
      ).toBe(false);
    });
  });
}
