import { randomUUID } from 'node:crypto';
import type { WebhookEndpoint } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import { commit, rollBack, useAdapters, type MakeAdapters } from './adapter-set';
import { givenLocationRow } from './fixtures';

export function anEndpoint(locationId: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: randomUUID(),
    locationId,
    providerId: locationId,
    description: null,
    singleton: true,
    url: 'https://provider.example.com/hooks/pis',
    events: ['floorplan.published', 'table.occupied', 'table.freed', 'table.spend_updated'],
    secrets: [{ secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`, expiresAt: null }],
    createdAt: at('2026-11-21T09:00:00.000001Z'),
    updatedAt: at('2026-11-21T09:00:00.000001Z'),
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    ...overrides,
  };
}

/**
 * `WebhookEndpointRepository` and the endpoint reads of `WebhookQueries`: a location's singleton
 * endpoint, and the endpoints of each scope (one provider at the location) by id.
 */
export function describeWebhookEndpointContract(name: string, make: MakeAdapters): void {
  describe(`${name}: webhook endpoint contract`, () => {
    const adapters = useAdapters(make);
    const lock = (locationId: string) => commit(adapters().uow, (tx) => tx.webhookEndpoints.lock(locationId));

    it('When a location has no endpoint, then lock and find answer null', async () => {
      const location = await givenLocationRow(adapters().uow);

      expect(await lock(location.id)).toBeNull();
      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toBeNull();
    });

    it('When an endpoint is saved, then it reads back field for field, secrets in clear and in order', async () => {
      const location = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(location.id, {
        events: ['table.occupied', 'table.freed'],
        secrets: [
          { secret: 'whsec_bmV3LXNlY3JldC1uZXctc2VjcmV0LW5ldw==', expiresAt: null },
          {
            secret: 'whsec_b2xkLXNlY3JldC1vbGQtc2VjcmV0LW9sZA==',
            expiresAt: at('2026-11-22T09:00:00.123456Z'),
          },
        ],
        disabledAt: at('2026-11-21T10:00:00.000009Z'),
        disabledReason: 'every delivery attempt failed for 120 hours',
        failingSince: at('2026-11-16T10:00:00.000001Z'),
      });

      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));

      expect(await lock(location.id)).toStrictEqual(endpoint);
      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toStrictEqual(endpoint);
    });

    it("When the location's endpoint is saved again, then the new state replaces the old one", async () => {
      const location = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(location.id);
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      const changed: WebhookEndpoint = {
        ...endpoint,
        url: 'https://provider.example.com/hooks/v2',
        events: ['floorplan.published'],
        secrets: [
          { secret: 'whsec_c2Vjb25kLXNlY3JldC1zZWNvbmQtc2Vjcg==', expiresAt: null },
          ...endpoint.secrets.map((s) => ({ ...s, expiresAt: at('2026-11-22T09:00:00Z') })),
        ],
        updatedAt: at('2026-11-21T11:00:00.000002Z'),
      };

      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(changed));

      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toStrictEqual(changed);
    });

    it('When an endpoint is deleted, then delete answers true once and the location has none', async () => {
      const location = await givenLocationRow(adapters().uow);
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(anEndpoint(location.id)));

      const first = await commit(adapters().uow, (tx) => tx.webhookEndpoints.delete(location.id));
      const second = await commit(adapters().uow, (tx) => tx.webhookEndpoints.delete(location.id));

      expect([first, second]).toEqual([true, false]);
      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toBeNull();
    });

    it('When an endpoint is deleted, then a new one can be registered for the location', async () => {
      const location = await givenLocationRow(adapters().uow);
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(anEndpoint(location.id)));
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.delete(location.id));
      const fresh = anEndpoint(location.id, { url: 'https://provider.example.com/fresh' });

      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(fresh));

      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toStrictEqual(fresh);
    });

    it('When one location has an endpoint, then another location neither sees nor deletes it', async () => {
      const mine = await givenLocationRow(adapters().uow);
      const other = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(mine.id);
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));

      expect(await lock(other.id)).toBeNull();
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.delete(other.id))).toBe(false);
      expect(await adapters().queries.webhooks.findEndpoint(mine.id)).toStrictEqual(endpoint);
    });

    it('When a location holds its singleton and scoped endpoints of two providers, then each scope counts, lists, locks and deletes its own alone, oldest first', async () => {
      const location = await givenLocationRow(adapters().uow);
      const otherProvider = randomUUID();
      const own = { locationId: location.id, providerId: location.id };
      const theirs = { locationId: location.id, providerId: otherProvider };
      const singleton = anEndpoint(location.id);
      const second = anEndpoint(location.id, {
        singleton: false,
        description: 'kitchen display',
        createdAt: at('2026-11-21T09:00:00.000002Z'),
      });
      const foreign = anEndpoint(location.id, { singleton: false, providerId: otherProvider });
      await commit(adapters().uow, async (tx) => {
        for (const e of [second, singleton, foreign]) await tx.webhookEndpoints.save(e);
      });
      const { webhooks } = adapters().queries;

      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockScope(own))).toBe(2);
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockScope(theirs))).toBe(1);
      expect(await webhooks.listEndpoints(own)).toStrictEqual([singleton, second]);
      expect(await webhooks.listEndpoints(theirs)).toStrictEqual([foreign]);
      expect(await webhooks.findEndpointById(foreign.id)).toStrictEqual(foreign);
      expect(await webhooks.findEndpoint(location.id)).toStrictEqual(singleton);
      expect(
        await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockById(own, second.id)),
      ).toStrictEqual(second);
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockById(own, foreign.id))).toBeNull();
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockById(own, 'not-an-id'))).toBeNull();
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.deleteById(own, foreign.id))).toBe(
        false,
      );

      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.delete(location.id))).toBe(true);
      expect(await webhooks.listEndpoints(own)).toStrictEqual([second]);
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.deleteById(theirs, foreign.id))).toBe(
        true,
      );
      expect(await webhooks.findEndpointById(foreign.id)).toBeNull();
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockScope(theirs))).toBe(0);
    });

    it('When a provider keeps provider-scope endpoints beside its endpoints at a location, then each scope counts, lists, locks and deletes its own alone', async () => {
      const location = await givenLocationRow(adapters().uow);
      const providerId = randomUUID();
      const wide = { locationId: null, providerId };
      const there = { locationId: location.id, providerId };
      const first = anEndpoint(location.id, { locationId: null, providerId, singleton: false });
      const second = anEndpoint(location.id, {
        locationId: null,
        providerId,
        singleton: false,
        events: ['table.occupied', 'connection.granted', 'connection.revoked'],
        createdAt: at('2026-11-21T09:00:00.000002Z'),
      });
      const located = anEndpoint(location.id, { providerId, singleton: false });
      const strangers = anEndpoint(location.id, {
        locationId: null,
        providerId: randomUUID(),
        singleton: false,
      });
      await commit(adapters().uow, async (tx) => {
        for (const e of [second, located, first, strangers]) await tx.webhookEndpoints.save(e);
      });
      const { webhooks } = adapters().queries;

      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockScope(wide))).toBe(2);
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockScope(there))).toBe(1);
      expect(await webhooks.listEndpoints(wide)).toStrictEqual([first, second]);
      expect(await webhooks.listEndpoints(there)).toStrictEqual([located]);
      expect(await webhooks.findEndpointById(second.id)).toStrictEqual(second);
      expect(
        await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockById(wide, second.id)),
      ).toStrictEqual(second);
      for (const [scope, id] of [
        [wide, located.id],
        [there, first.id],
        [wide, strangers.id],
      ] as const) {
        expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.lockById(scope, id))).toBeNull();
        expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.deleteById(scope, id))).toBe(false);
      }
      expect(await commit(adapters().uow, (tx) => tx.webhookEndpoints.deleteById(wide, first.id))).toBe(true);
      expect(await webhooks.listEndpoints(wide)).toStrictEqual([second]);
      expect(await webhooks.listEndpoints(there)).toStrictEqual([located]);
      expect(await webhooks.findEndpoint(location.id)).toBeNull();
    });

    it('When a scoped endpoint is saved again, then its changes replace the old state and its scope and creation time stay', async () => {
      const location = await givenLocationRow(adapters().uow);
      const endpoint = anEndpoint(location.id, { singleton: false, description: 'one' });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      const changed = { ...endpoint, description: null, url: 'https://provider.example.com/v2' };

      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(changed));

      expect(await adapters().queries.webhooks.findEndpointById(endpoint.id)).toStrictEqual(changed);
      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toBeNull();
    });

    it('When a save rolls back, then the endpoint is not stored', async () => {
      const location = await givenLocationRow(adapters().uow);

      await rollBack(adapters().uow, (tx) => tx.webhookEndpoints.save(anEndpoint(location.id)));

      expect(await adapters().queries.webhooks.findEndpoint(location.id)).toBeNull();
    });
  });
}
