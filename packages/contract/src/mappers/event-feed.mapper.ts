import type { EventFeedPage, EventType, RecoverFrom, TableStateSnapshot } from '@pis/domain';
import type {
  EventFeedQuery,
  EventFeedResponse,
  RecoverRequest,
  RecoverResponse,
  TableStateResponse,
} from '../wire-types';
import { toInstant } from './instant';
import { toWebhookEventBody } from './webhook.mapper';

/** The feed's parameters with their defaults; `types` once each, in the order given. */
export const toEventFeedCommand = (query: EventFeedQuery) => ({
  after: query.after ?? 0,
  limit: query.limit ?? 100,
  types: query.types === undefined ? null : [...new Set(query.types.split(',') as EventType[])],
});

/** Each event exactly as its deliveries carry it, with its id (their `webhook-id`). */
export const toEventFeedResponse = (page: EventFeedPage): EventFeedResponse => ({
  events: page.events.map((event) => ({ id: event.id, ...toWebhookEventBody(event) })),
  nextAfter: page.nextAfter,
  hasMore: page.hasMore,
  oldestRetainedSequence: page.oldestRetainedSequence,
});

export const toTableStateResponse = (state: TableStateSnapshot): TableStateResponse => ({
  asOfSequence: state.asOfSequence,
  floorplanVersion: state.floorplanVersion,
  tables: state.tables.map(({ order, ...table }) => ({
    ...table,
    order:
      order === null
        ? null
        : {
            id: order.id,
            reservationExternalId: order.reservationExternalId,
            covers: order.covers,
            spendMinor: order.spendMinor,
            currency: order.currency,
            openedAt: order.openedAt.toIso(),
            tableIds: [...order.tableIds],
            serviceStatus: order.serviceStatus,
          },
  })),
});

/** The schema lets exactly one of the two through. */
export const toRecoverFrom = (body: RecoverRequest): RecoverFrom =>
  body.afterSequence !== undefined
    ? { afterSequence: body.afterSequence }
    : { since: toInstant(body.since!) };

export const toRecoverResponse = (result: { queued: number }): RecoverResponse => ({ queued: result.queued });
