import { ownProviderId } from '../../access/provider';
import { eventVisibleTo, providerReader, visibleTo } from '../../access/visibility';
import type { EventType, StoredEvent } from '../../events/domain-event';
import type { RecoverFrom } from '../../events/event-feed.port';
import { tableStateOf, type TableStateSnapshot } from '../../events/table-state';
import { fail, ok, type Failure } from '../../kernel/outcome';
import type { UseCase } from '../use-case.types';
import type { Transaction } from '../../system/unit-of-work.port';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint';

export interface EventFeedPage {
  events: StoredEvent[];
  /** The last returned sequence, or `after` when none was. */
  nextAfter: number;
  hasMore: boolean;
  oldestRetainedSequence: number;
}

/** `providerId`: the reader (left out: the location's own provider). */
export type ReadEventFeed = UseCase<
  { locationId: string; providerId?: string; after: number; limit: number; types: EventType[] | null },
  EventFeedPage
>;
/** `providerId`: the reader (left out: the location's own provider). */
export type ReadTableState = UseCase<{ locationId: string; providerId?: string }, TableStateSnapshot>;
export type RecoverWebhooks = UseCase<{ locationId: string; from: RecoverFrom }, { queued: number }>;
export type RecoverScopedWebhooks = UseCase<
  { id: string; locationId: string | null; providerId: string; from: RecoverFrom },
  { queued: number }
>;

const expired = (what: string): Failure =>
  fail(
    'events_expired',
    `${what} has been pruned by retention: rebuild from GET /tables/state, then read the feed from its asOfSequence`,
  );

/**
 * The location's events strictly after `after`, ascending, as the provider may see them: only
 * those committed while it was connected (the others are left out as if filtered by type),
 * each with another provider's reservation id hidden (`eventVisibleTo`). A position whose next
 * event has been pruned is `events_expired`: reading on would skip events.
 */
export const readEventFeed: ReadEventFeed = async (deps, command) => {
  const { locationId, after, limit, types } = command;
  const providerId = command.providerId ?? ownProviderId(locationId);
  // The location's own provider is connected from its first event and never revoked.
  const connected = providerId === ownProviderId(locationId) ? {} : { providerId };
  const page = await deps.queries.events.page({ locationId, ...connected, after, limit: limit + 1, types });
  if (after < page.oldestRetainedSequence - 1) {
    return expired(
      `the event after sequence ${after} (the oldest retained is ${page.oldestRetainedSequence})`,
    );
  }
  const reader = providerReader(providerId);
  const events = page.events.slice(0, limit).map((event) => eventVisibleTo(reader, event));
  return ok({
    events,
    nextAfter: events.length === 0 ? after : events[events.length - 1]!.sequence,
    hasMore: page.events.length > limit,
    oldestRetainedSequence: page.oldestRetainedSequence,
  });
};

/**
 * Every published table with its open order, read in one snapshot with the sequence it
 * reflects; an order seated by another provider's reservation shows `reservationExternalId`
 * null to the reader, as a walk-in does.
 */
export const readTableState: ReadTableState = async (deps, { locationId, providerId }) => {
  const read = await deps.queries.events.tableState(locationId);
  const plan = read.plan;
  if (plan === null) return fail('floorplan_not_published', 'the floor plan has not been published yet');
  const who = providerReader(providerId ?? ownProviderId(locationId));
  const openOrders = read.openOrders.map((order) => visibleTo(who, order.reservationProviderId, order));
  return ok(tableStateOf({ ...read, openOrders, plan }));
};

/**
 * Queues every retained event after `from` that the endpoint subscribes to again, as new
 * deliveries with the events' original ids, in sequence order; events raised before the
 * endpoint existed included.
 */
export const recoverWebhooks: RecoverWebhooks = async (deps, { locationId, from }) =>
  recoverTo(
    deps,
    (tx) => tx.webhookEndpoints.lock(locationId),
    from,
    'PUT',
    () => fail('not_found', 'no webhook endpoint is registered; PUT one first'),
  );

/**
 * `recoverWebhooks` for one endpoint of the caller's scope (`POST /webhook-endpoints/{id}/recover`):
 * only the events committed while its provider was connected to the location are queued.
 */
export const recoverScopedWebhooks: RecoverScopedWebhooks = async (
  deps,
  { id, locationId, providerId, from },
) => {
  // Sequences are per location: a provider-scope endpoint recovers by time only.
  if (locationId === null && 'afterSequence' in from) {
    return fail(
      'validation_failed',
      'a provider-scope endpoint receives several locations, each with its own sequence: recover it with since',
      [{ path: '/afterSequence', message: 'not accepted for a provider-scope endpoint; send since instead' }],
    );
  }
  return recoverTo(
    deps,
    (tx) => tx.webhookEndpoints.lockById({ locationId, providerId }, id),
    from,
    'PATCH',
    () => fail('not_found', `there is no webhook endpoint ${id} here`),
  );
};

async function recoverTo(
  deps: Parameters<RecoverWebhooks>[0],
  lock: (tx: Transaction) => Promise<WebhookEndpoint | null>,
  from: RecoverFrom,
  enable: 'PUT' | 'PATCH',
  none: () => Failure,
) {
  return deps.uow.run(async (tx) => {
    const endpoint = await lock(tx);
    if (endpoint === null) return none();
    if (endpoint.disabledAt !== null) {
      return fail(
        'validation_failed',
        `the webhook endpoint is disabled (${endpoint.disabledReason ?? 'by the service'}); ${enable} it to enable it, then recover`,
      );
    }
    const requeued = await tx.eventRecovery.requeue(endpoint, from);
    if (requeued === 'expired') {
      return expired(
        'afterSequence' in from
          ? `the event after sequence ${from.afterSequence}`
          : `an event since ${from.since.toIso()}`,
      );
    }
    return ok(requeued);
  });
}
