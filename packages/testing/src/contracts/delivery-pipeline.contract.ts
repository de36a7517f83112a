import { randomUUID } from 'node:crypto';
import { Instant, type EventType, type StoredEvent, type WebhookDelivery } from '@pis/domain';
import { type ClaimedDelivery } from '@pis/ports';
import { commit, useAdapters, type InspectableAdapterSet } from './adapter-set';
import { givenLocationRow } from './fixtures';
import { anEvent } from './outbox.contract';
import { anEndpoint } from './webhook-endpoint.contract';

const LEASE_MS = 60_000;
/** A policy that never disables within a test. */
const HEALTH = { disableAfterFailingMs: 7 * 24 * 3_600_000, failingReason: 'failing too long' };
const wallClock = () => Instant.fromEpochMillis(Date.now());

/**
 * `DeliveryPipelineStore`: relay, leases, attempt log, enqueue candidates and commit signals.
 * The store's clock is real time on every adapter (a database's is), so the cases only rely
 * on "now" and leases far longer than a test. Relaying and claiming are global (every
 * location's work), so each case looks at its own fresh location only.
 */
export function describeDeliveryPipelineContract(
  name: string,
  make: () => Promise<InspectableAdapterSet>,
): void {
  describe(`${name}: webhook delivery pipeline contract`, () => {
    const adapters = useAdapters(make);
    const pipeline = () => adapters().pipeline;

    async function relayAll(): Promise<void> {
      while ((await pipeline().relay.relayBatch(500)).events > 0);
    }

    async function deliveriesOf(locationId: string): Promise<WebhookDelivery[]> {
      return adapters().queries.webhooks.listDeliveries({
        locationId,
        status: null,
        after: null,
        limit: 500,
      });
    }

    /** A location with an endpoint subscribing to `events`, and `count` committed events, relayed. */
    async function givenRelayed(
      count: number,
      events: EventType[] = ['table.occupied'],
    ): Promise<{ locationId: string; endpointId: string; stored: StoredEvent[] }> {
      const location = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(location.id, { events });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      const stored = await commit(adapters().uow, (tx) =>
        tx.outbox.append(
          location.id,
          Array.from({ length: count }, (_, i) => anEvent(i + 1)),
        ),
      );
      await relayAll();
      return { locationId: location.id, endpointId: endpoint.id, stored };
    }

    async function claimMine(locationId: string): Promise<ClaimedDelivery[]> {
      const mine: ClaimedDelivery[] = [];
      for (;;) {
        const claimed = await pipeline().leases.claimDue(500, LEASE_MS);
        mine.push(...claimed.filter((d) => d.locationId === locationId));
        if (claimed.length < 500)
          return mine.sort((a, b) => (a.event.sequence ?? 0) - (b.event.sequence ?? 0));
      }
    }

    const result = (status: number | null) => ({
      attemptedAt: Instant.fromEpochMillis(Date.now()),
      responseStatus: status,
      durationMs: 12,
      error: status !== null && status < 300 ? null : 'the receiver answered 500',
    });

    it('When events are relayed, then each gets one pending delivery to the subscribing endpoint, due now, and is relayed once', async () => {
      const before = Instant.fromEpochMillis(Date.now() - 1_000);
      const { locationId, endpointId, stored } = await givenRelayed(3);

      await relayAll();

      const deliveries = await deliveriesOf(locationId);
      expect(deliveries.map((d) => d.eventId).sort()).toEqual(stored.map((e) => e.id).sort());
      for (const d of deliveries) {
        expect(d).toMatchObject({ endpointId, status: 'pending', attempts: [] });
        expect(d.nextAttemptAt!.isAfter(before)).toBe(true);
      }
    });

    it('When the location has no endpoint, or it is disabled, or it does not subscribe to the type, then no delivery is made and the events still count as relayed', async () => {
      const bare = await givenLocationRow(adapters().uow);
      const disabled = await givenLocationRow(adapters().uow);
      const other = await givenLocationRow(adapters().uow);
      await commit(adapters().uow, async (tx) => {
        await tx.webhookEndpoints.save(anEndpoint(disabled.id, { disabledAt: wallClock() }));
        await tx.webhookEndpoints.save(anEndpoint(other.id, { events: ['floorplan.published'] }));
      });
      for (const location of [bare, disabled, other]) {
        await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(1)]));
      }

      await relayAll();
      await commit(adapters().uow, (tx) =>
        tx.webhookEndpoints.save(anEndpoint(bare.id, { events: ['table.occupied'] })),
      );
      await relayAll();

      for (const location of [bare, disabled, other]) expect(await deliveriesOf(location.id)).toEqual([]);
    });

    it('When a location has several endpoints, then an event gets one delivery per endpoint that wants it, of a provider connected when it was committed, and the log filters by provider and endpoint', async () => {
      const location = await givenLocationRow(adapters().uow);
      const guest = {
        id: randomUUID(),
        name: 'Guest',
        brand: `g${Date.now() % 1e9}`,
        createdAt: wallClock(),
      };
      const stranger = randomUUID();
      const singleton = anEndpoint(location.id, { events: ['table.occupied'] });
      const second = anEndpoint(location.id, { singleton: false, events: ['table.occupied'] });
      const filtered = anEndpoint(location.id, { singleton: false, events: ['table.freed'] });
      const guests = anEndpoint(location.id, {
        singleton: false,
        providerId: guest.id,
        events: ['table.occupied'],
      });
      const strangers = anEndpoint(location.id, {
        singleton: false,
        providerId: stranger,
        events: ['table.occupied'],
      });
      await commit(adapters().uow, async (tx) => {
        await tx.providers.insert(guest);
        await tx.connections.grant(location.id, guest.id, wallClock());
        for (const e of [singleton, second, filtered, guests, strangers]) await tx.webhookEndpoints.save(e);
      });
      const [first] = await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(1)]));
      await relayAll();
      await commit(adapters().uow, (tx) => tx.connections.revoke(location.id, guest.id, wallClock()));
      const [later] = await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(2)]));
      await relayAll();

      const made = (await deliveriesOf(location.id)).map((d) => `${d.eventId}/${d.endpointId}`).sort();
      expect(made).toEqual(
        [
          `${first!.id}/${singleton.id}`,
          `${first!.id}/${second.id}`,
          `${first!.id}/${guests.id}`,
          `${later!.id}/${singleton.id}`,
          `${later!.id}/${second.id}`,
        ].sort(),
      );
      const log = (q: { providerId?: string; endpointId?: string }) =>
        adapters()
          .queries.webhooks.listDeliveries({
            locationId: location.id,
            status: null,
            after: null,
            limit: 50,
            ...q,
          })
          .then((ds) => ds.map((d) => d.endpointId).sort());
      expect(await log({ providerId: guest.id })).toEqual([guests.id]);
      expect(await log({ providerId: location.id })).toEqual(
        [singleton.id, singleton.id, second.id, second.id].sort(),
      );
      expect(await log({ endpointId: second.id })).toEqual([second.id, second.id]);
      expect(await log({ endpointId: filtered.id })).toEqual([]);
    });

    it('When a provider keeps provider-scope endpoints, then they get the events of the locations it is connected to while connected and its connection events, each as its types say, and its log spans locations', async () => {
      const [here, elsewhere] = [
        await givenLocationRow(adapters().uow),
        await givenLocationRow(adapters().uow),
      ];
      const provider = {
        id: randomUUID(),
        name: 'Many venues',
        brand: `m${Date.now() % 1e9}`,
        createdAt: wallClock(),
      };
      const all = anEndpoint(here.id, {
        locationId: null,
        providerId: provider.id,
        singleton: false,
        events: ['table.occupied', 'connection.granted', 'connection.revoked'],
      });
      const revokes = anEndpoint(here.id, {
        locationId: null,
        providerId: provider.id,
        singleton: false,
        events: ['connection.revoked'],
      });
      const strangers = anEndpoint(here.id, {
        locationId: null,
        providerId: randomUUID(),
        singleton: false,
        events: ['table.occupied', 'connection.granted'],
      });
      const granted = await commit(adapters().uow, async (tx) => {
        await tx.providers.insert(provider);
        for (const e of [all, revokes, strangers]) await tx.webhookEndpoints.save(e);
        await tx.connections.grant(here.id, provider.id, wallClock());
        return tx.outbox.appendConnectionEvent(provider.id, here.id, {
          type: 'connection.granted',
          occurredAt: wallClock(),
          data: { locationName: 'Here', occurredAt: wallClock().toIso() },
        });
      });
      const [whileConnected] = await commit(adapters().uow, (tx) => tx.outbox.append(here.id, [anEvent(1)]));
      await commit(adapters().uow, (tx) => tx.outbox.append(elsewhere.id, [anEvent(1)]));
      await relayAll();
      const revoked = await commit(adapters().uow, async (tx) => {
        await tx.connections.revoke(here.id, provider.id, wallClock());
        return tx.outbox.appendConnectionEvent(provider.id, here.id, {
          type: 'connection.revoked',
          occurredAt: wallClock(),
          data: { locationName: 'Here', occurredAt: wallClock().toIso() },
        });
      });
      await commit(adapters().uow, (tx) => tx.outbox.append(here.id, [anEvent(2)]));
      await relayAll();

      expect(granted.sequence).toBeNull();
      const made = (await deliveriesOf(here.id))
        .map((d) => `${d.eventId}/${d.endpointId}/${d.sequence}`)
        .sort();
      expect(made).toEqual(
        [
          `${granted.id}/${all.id}/null`,
          `${whileConnected!.id}/${all.id}/${whileConnected!.sequence}`,
          `${revoked.id}/${all.id}/null`,
          `${revoked.id}/${revokes.id}/null`,
        ].sort(),
      );
      expect(await deliveriesOf(elsewhere.id)).toEqual([]);
      const wideLog = await adapters().queries.webhooks.listDeliveries({
        locationId: null,
        providerId: provider.id,
        status: null,
        after: null,
        limit: 50,
      });
      expect(wideLog.map((d) => d.endpointId).sort()).toEqual([all.id, all.id, all.id, revokes.id].sort());
      const oneLog = await adapters().queries.webhooks.listDeliveries({
        locationId: null,
        providerId: provider.id,
        endpointId: revokes.id,
        status: null,
        after: null,
        limit: 50,
      });
      expect(oneLog.map((d) => [d.eventType, d.sequence])).toEqual([['connection.revoked', null]]);
    });

    it('When due deliveries are claimed, then each comes with its event as stored, and a second claim skips them while leased', async () => {
      const { locationId, stored } = await givenRelayed(2);

      const first = await claimMine(locationId);
      const second = await claimMine(locationId);

      expect(first.map((d) => d.event)).toStrictEqual(stored);
      expect(first.map((d) => [d.generation, d.attemptCount])).toEqual([
        [0, 0],
        [0, 0],
      ]);
      expect(second).toEqual([]);
      const byId = await pipeline().leases.claimById(first[0]!.id, 0, LEASE_MS);
      expect(byId.kind).toBe('not-due');
      if (byId.kind === 'not-due') {
        expect(byId.dueAt.isAfter(Instant.fromEpochMillis(Date.now() + LEASE_MS / 2))).toBe(true);
      }
    });

    it('When due deliveries are claimed with a room per endpoint, then no endpoint gets more than its room, the others fill the limit, and an endpoint without room keeps all of its', async () => {
      // Deliveries other cases left due would be claimed too: claim them out of the way first.
      await claimMine('');
      const backlog = await givenRelayed(10);
      const quiet = await givenRelayed(2);
      const unknown = await givenRelayed(4);
      const full = await givenRelayed(3);
      const room = {
        endpoints: new Map([
          [backlog.endpointId, 2],
          [full.endpointId, 0],
        ]),
        otherwise: 3,
      };

      const claimed = await pipeline().leases.claimDue(7, LEASE_MS, room);

      const countOf = (locationId: string) => claimed.filter((d) => d.locationId === locationId).length;
      expect([backlog, quiet, unknown, full].map((l) => countOf(l.locationId))).toEqual([2, 2, 3, 0]);
      expect(claimed).toHaveLength(7);
    });

    it('When a delivery is claimed by id for its generation, then it is claimed once; an unknown id is gone', async () => {
      const { locationId } = await givenRelayed(1);
      const [delivery] = await deliveriesOf(locationId);

      const claim = await pipeline().leases.claimById(delivery!.id, 0, LEASE_MS);
      const again = await pipeline().leases.claimById(delivery!.id, 0, LEASE_MS);
      const unknown = await pipeline().leases.claimById('00000000-0000-4000-8000-000000000000', 0, LEASE_MS);

      expect(claim.kind === 'claimed' && claim.delivery.id).toBe(delivery!.id);
      expect(again.kind).toBe('not-due');
      expect(unknown).toEqual({ kind: 'nothing-to-do', why: 'gone' });
    });

    it('When a successful attempt is recorded, then the delivery succeeded with the attempt listed, and nothing is left to do', async () => {
      const { locationId } = await givenRelayed(1);
      const [claimed] = await claimMine(locationId);
      const attempt = result(204);

      await pipeline().attempts.record(claimed!, attempt, { kind: 'succeeded' }, HEALTH);

      const [delivery] = await deliveriesOf(locationId);
      expect(delivery).toMatchObject({ status: 'succeeded', nextAttemptAt: null, attempts: [attempt] });
      expect(await pipeline().leases.claimById(claimed!.id, 0, LEASE_MS)).toEqual({
        kind: 'nothing-to-do',
        why: 'settled',
      });
    });

    it('When a retry without delay is recorded, then the delivery is due again and the next claim counts the attempt', async () => {
      const { locationId } = await givenRelayed(1);
      const [claimed] = await claimMine(locationId);

      await pipeline().attempts.record(claimed!, result(500), { kind: 'retry', delayMs: 0 }, HEALTH);
      const [again] = await claimMine(locationId);

      expect(again).toMatchObject({ id: claimed!.id, generation: 0, attemptCount: 1 });
      const [delivery] = await deliveriesOf(locationId);
      expect(delivery!.status).toBe('pending');
      expect(delivery!.attempts).toHaveLength(1);
    });

    it('When a retry with a delay is recorded, then the delivery is not due before the delay', async () => {
      const { locationId } = await givenRelayed(1);
      const [claimed] = await claimMine(locationId);

      await pipeline().attempts.record(claimed!, result(503), { kind: 'retry', delayMs: 3_600_000 }, HEALTH);

      expect(await claimMine(locationId)).toEqual([]);
      const [delivery] = await deliveriesOf(locationId);
      expect(delivery!.nextAttemptAt!.isAfter(Instant.fromEpochMillis(Date.now() + 3_000_000))).toBe(true);
    });

    it('When a failure that disables the endpoint is recorded, then the delivery failed and the endpoint is disabled', async () => {
      const { locationId } = await givenRelayed(1);
      const [claimed] = await claimMine(locationId);

      await pipeline().attempts.record(
        claimed!,
        result(410),
        { kind: 'failed', disableEndpoint: true },
        HEALTH,
      );

      const [delivery] = await deliveriesOf(locationId);
      expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
      const endpoint = (await adapters().queries.webhooks.findEndpoint(locationId))!;
      expect(endpoint.disabledAt).not.toBeNull();
      expect(endpoint.disabledReason).toBe('the receiver answered 410 Gone');
    });

    it('When a 410 attempted before a PUT enabled the endpoint again is recorded after that PUT, then it fails its delivery but leaves the endpoint enabled; a 410 attempted after it disables it', async () => {
      const { locationId } = await givenRelayed(2);
      const [a, b] = await claimMine(locationId);
      const endpoint = () => adapters().queries.webhooks.findEndpoint(locationId);
      // The attempt is in flight while the endpoint is enabled again (a PUT: the endpoint changes).
      const inFlight = result(410);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const enabled = { ...(await endpoint())!, updatedAt: wallClock() };
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(enabled));
      await new Promise((resolve) => setTimeout(resolve, 5));

      const late = await pipeline().attempts.record(
        a!,
        inFlight,
        { kind: 'failed', disableEndpoint: true },
        HEALTH,
      );
      const afterLate = await endpoint();
      const fresh = await pipeline().attempts.record(
        b!,
        result(410),
        { kind: 'failed', disableEndpoint: true },
        HEALTH,
      );

      expect(late.endpointDisabled).toBe(false);
      expect(afterLate).toMatchObject({ disabledAt: null, failingSince: null });
      expect((await deliveriesOf(locationId)).map((d) => d.status)).toEqual(['failed', 'failed']);
      expect(fresh.endpointDisabled).toBe(true);
      expect((await endpoint())!.disabledReason).toBe('the receiver answered 410 Gone');
    });

    it("When attempts fail, then the endpoint's run of failures starts at the first and a success ends it; a refused attempt leaves it alone", async () => {
      const { locationId } = await givenRelayed(3);
      const [a, b, c] = await claimMine(locationId);
      const endpoint = () => adapters().queries.webhooks.findEndpoint(locationId);

      const first = result(500);
      await pipeline().attempts.record(a!, first, { kind: 'retry', delayMs: 60_000 }, HEALTH);
      await pipeline().attempts.record(b!, result(502), { kind: 'retry', delayMs: 60_000 }, HEALTH);
      const failing = (await endpoint())!.failingSince;
      await pipeline().attempts.record(c!, result(null), { kind: 'failed', disableEndpoint: false }, null);
      const afterRefusal = (await endpoint())!.failingSince;
      await pipeline().attempts.record(a!, result(204), { kind: 'succeeded' }, HEALTH);

      expect(failing).toStrictEqual(first.attemptedAt);
      expect(afterRefusal).toStrictEqual(first.attemptedAt);
      expect((await endpoint())!).toMatchObject({
        failingSince: null,
        disabledAt: null,
        disabledReason: null,
      });
    });

    it('When a failure comes after failing for as long as the policy allows, then the endpoint is disabled with that reason, once', async () => {
      const { locationId } = await givenRelayed(2);
      const [a, b] = await claimMine(locationId);
      const policy = { disableAfterFailingMs: 0, failingReason: 'every delivery attempt failed for 0 hours' };

      const disabling = await pipeline().attempts.record(
        a!,
        result(500),
        { kind: 'retry', delayMs: 1_000 },
        policy,
      );
      const later = await pipeline().attempts.record(
        b!,
        result(500),
        { kind: 'retry', delayMs: 1_000 },
        policy,
      );

      expect([disabling, later]).toEqual([{ endpointDisabled: true }, { endpointDisabled: false }]);
      const endpoint = (await adapters().queries.webhooks.findEndpoint(locationId))!;
      expect(endpoint.disabledAt).not.toBeNull();
      expect(endpoint.disabledReason).toBe(policy.failingReason);
      await relayAll();
      await commit(adapters().uow, (tx) => tx.outbox.append(locationId, [anEvent(9)]));
      await relayAll();
      expect(await deliveriesOf(locationId)).toHaveLength(2);
    });

    it('When a redelivery is requested during an attempt, then that attempt is kept as history and the new generation is pending, due, its count started over', async () => {
      const { locationId } = await givenRelayed(1);
      const [claimed] = await claimMine(locationId);
      const failedBefore = { ...claimed!, attemptCount: 0 };
      await pipeline().attempts.record(
        claimed!,
        result(500),
        { kind: 'failed', disableEndpoint: false },
        HEALTH,
      );
      const [again] = await claimMine(locationId);
      expect(again).toBeUndefined();

      await commit(adapters().uow, (tx) => tx.webhookDeliveries.requestRedelivery(locationId, claimed!.id));
      const [renewed] = await claimMine(locationId);
      await pipeline().attempts.record(
        failedBefore,
        result(500),
        { kind: 'failed', disableEndpoint: false },
        HEALTH,
      );

      expect(renewed).toMatchObject({ id: claimed!.id, generation: 1, attemptCount: 0 });
      const [delivery] = await deliveriesOf(locationId);
      expect(delivery!.status).toBe('pending');
      expect(delivery!.attempts).toHaveLength(2);
      expect(await pipeline().leases.claimById(claimed!.id, 0, LEASE_MS)).toEqual({
        kind: 'nothing-to-do',
        why: 'superseded',
      });
    });

    it('When generations are marked queued, then they are no longer candidates, and a redelivery makes the next generation one', async () => {
      const { locationId } = await givenRelayed(2);
      const mine = async () =>
        (await pipeline().candidates.unqueued(100_000)).filter((c) => ids.some((id) => id === c.deliveryId));
      const ids = (await deliveriesOf(locationId)).map((d) => d.id);

      const before = await mine();
      await pipeline().candidates.markQueued(
        before.map(({ deliveryId, generation }) => ({ deliveryId, generation })),
      );
      const after = await mine();
      await commit(adapters().uow, (tx) => tx.webhookDeliveries.requestRedelivery(locationId, ids[0]!));
      await pipeline().candidates.markQueued([{ deliveryId: ids[0]!, generation: 0 }]);
      const redelivered = await mine();

      expect(before.map((c) => c.deliveryId).sort()).toEqual([...ids].sort());
      for (const c of before) {
        expect(c.generation).toBe(0);
        expect(c.delayMs).toBeGreaterThanOrEqual(0);
        expect(c.delayMs).toBeLessThan(1_000);
      }
      expect(after).toEqual([]);
      expect(redelivered.map((c) => [c.deliveryId, c.generation])).toEqual([[ids[0], 1]]);
    });

    it('When a relay that hands its deliveries to a queue relays, then it answers each with its event, and they are marked queued and leased for their first attempt; marked unqueued again, they are candidates', async () => {
      const location = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(location.id, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      const stored = await commit(adapters().uow, (tx) =>
        tx.outbox.append(location.id, [anEvent(1), anEvent(2)]),
      );
      const created = [];
      for (;;) {
        const batch = await pipeline().relay.relayBatch(500, { leaseMs: LEASE_MS });
        created.push(...batch.created.filter((d) => d.locationId === location.id));
        if (batch.events === 0) break;
      }
      const ids = (await deliveriesOf(location.id)).map((d) => d.id);
      const candidates = async () =>
        (await pipeline().candidates.unqueued(100_000)).filter((c) => ids.includes(c.deliveryId));

      const whileMarked = await candidates();
      const leased = await claimMine(location.id);
      await pipeline().candidates.markUnqueued([created[0]!]);
      const afterRefusal = await candidates();

      expect(created.map((d) => d.event)).toStrictEqual(stored);
      expect(created.map((d) => [d.generation, d.endpointId])).toEqual([
        [0, endpoint.id],
        [0, endpoint.id],
      ]);
      expect(created.map((d) => d.deliveryId).sort()).toEqual([...ids].sort());
      expect(whileMarked).toEqual([]);
      expect(leased).toEqual([]);
      expect(afterRefusal.map((c) => c.deliveryId)).toEqual([created[0]!.deliveryId]);
    });

    it('When a delivery is claimed by id with what its job carries, then it is leased as with a read of its event, and the second claim finds it leased', async () => {
      const { locationId, endpointId, stored } = await givenRelayed(1);
      const [delivery] = await deliveriesOf(locationId);
      const carried = { locationId, endpointId, event: stored[0]! };

      const claim = await pipeline().leases.claimById(delivery!.id, 0, LEASE_MS, carried);
      const again = await pipeline().leases.claimById(delivery!.id, 0, LEASE_MS, carried);

      expect(claim).toEqual({
        kind: 'claimed',
        delivery: {
          id: delivery!.id,
          locationId,
          endpointId,
          event: stored[0],
          generation: 0,
          attemptCount: 0,
        },
      });
      expect(again.kind).toBe('not-due');
    });

    it("When a relay's hand-off is claimed by the job that owns the relay's lease, then it is leased at once; by any other, it waits for that lease; once attempted, the relay's lease is no one's", async () => {
      const location = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(location.id, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(1)]));
      let relayed;
      do relayed = (await pipeline().relay.relayBatch(500, { leaseMs: LEASE_MS })).created;
      while (relayed.length > 0 && relayed[0]!.locationId !== location.id);
      const [d] = relayed;
      const carried = { locationId: location.id, endpointId: endpoint.id, event: d!.event };

      const other = await pipeline().leases.claimById(d!.deliveryId, 0, LEASE_MS, carried);
      const owner = await pipeline().leases.claimById(d!.deliveryId, 0, LEASE_MS, carried, true);
      if (owner.kind === 'claimed')
        await pipeline().attempts.record(
          owner.delivery,
          result(500),
          { kind: 'retry', delayMs: 3_600_000 },
          HEALTH,
        );
      const afterAttempt = await pipeline().leases.claimById(d!.deliveryId, 0, LEASE_MS, carried, true);

      expect(other.kind).toBe('not-due');
      expect(owner).toMatchObject({ kind: 'claimed', delivery: { id: d!.deliveryId, attemptCount: 0 } });
      expect(afterAttempt.kind).toBe('not-due');
    });

    it('When a claimed delivery is handed back, then it is due at the time given, and only a call for that time makes it due at once', async () => {
      const { locationId } = await givenRelayed(1);
      const [claimed] = await claimMine(locationId);

      const until = await pipeline().leases.handBack(claimed!.id, 0, 3_600_000);
      const meanwhile = await claimMine(locationId);
      const wrongTime = await pipeline().leases.dueNow(claimed!.id, 0, until!.plusMicros(1n));
      const called = await pipeline().leases.dueNow(claimed!.id, 0, until!);
      const calledAgain = await pipeline().leases.dueNow(claimed!.id, 0, until!);
      const [due] = await claimMine(locationId);
      const otherGeneration = await pipeline().leases.handBack(claimed!.id, 1, 0);

      expect(until!.isAfter(Instant.fromEpochMillis(Date.now() + 3_000_000))).toBe(true);
      expect(meanwhile).toEqual([]);
      expect([wrongTime, called, calledAgain]).toEqual([false, true, false]);
      expect(due?.id).toBe(claimed!.id);
      expect(otherGeneration).toBeNull();
    });

    it('When queued deliveries are overdue, then they are listed earliest first, page by page from a position; null lists every queued one, due or not (leased)', async () => {
      const { locationId } = await givenRelayed(3);
      const ids = new Set((await deliveriesOf(locationId)).map((d) => d.id));
      const jobs = (await pipeline().candidates.unqueued(100_000)).filter((c) => ids.has(c.deliveryId));
      await pipeline().candidates.markQueued(jobs);
      await new Promise((resolve) => setTimeout(resolve, 5));

      const all = (await pipeline().candidates.overdueQueued(0, 100_000)).filter((c) =>
        ids.has(c.deliveryId),
      );
      const notYet = (await pipeline().candidates.overdueQueued(3_600_000, 100_000)).filter((c) =>
        ids.has(c.deliveryId),
      );
      const firstPage = await pipeline().candidates.overdueQueued(0, 1, all[0]!.position);
      const everyone = await pipeline().candidates.overdueQueued(0, 100_000);
      await claimMine(locationId);
      const leasedOverdue = (await pipeline().candidates.overdueQueued(0, 100_000)).filter((c) =>
        ids.has(c.deliveryId),
      );
      const everyQueued = (await pipeline().candidates.overdueQueued(null, 100_000)).filter((c) =>
        ids.has(c.deliveryId),
      );

      expect(all.map((c) => c.deliveryId).sort()).toEqual([...ids].sort());
      expect(notYet).toEqual([]);
      const index = everyone.findIndex((c) => c.deliveryId === all[0]!.deliveryId);
      expect(firstPage).toEqual(everyone.slice(index + 1, index + 2));
      expect(leasedOverdue).toEqual([]);
      expect(everyQueued.map((c) => c.deliveryId).sort()).toEqual([...ids].sort());
    });

    it('When subscribed to commit signals, then the listener is called at once and again after a commit that appended events', async () => {
      const location = await givenLocationRow(adapters().uow);
      let calls = 0;
      const unsubscribe = await pipeline().signals.subscribe(() => (calls += 1));
      const atOnce = calls;

      await commit(adapters().uow, (tx) => tx.outbox.append(location.id, [anEvent(1)]));
      const deadline = Date.now() + 5_000;
      while (calls === atOnce && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await unsubscribe();

      expect(atOnce).toBeGreaterThanOrEqual(1);
      expect(calls).toBeGreaterThan(atOnce);
    });
  });
}
