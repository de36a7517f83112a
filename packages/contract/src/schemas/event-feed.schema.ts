import { EVENT_TYPES } from '@pis/domain';
import { atLeast, closedObject, dateTime, int, responseObject } from './primitives';
import { orderResponseSchema } from './order.schema';
import {
  floorplanPublishedEventSchema,
  orderClosedEventSchema,
  tableFreedEventSchema,
  tableOccupiedEventSchema,
  tableSpendUpdatedEventSchema,
  tableStatusChangedEventSchema,
} from './webhook-event.schema';

/** A sequence position: 0 is "before the first event". */
const position = (description: string) => ({ ...int(0, Number.MAX_SAFE_INTEGER), description }) as const;

const TYPE = EVENT_TYPES.map((t) => t.replace('.', '\\.')).join('|');

/** Query parameters arrive as strings; `after` and `limit` are coerced to integers before validation. */
export const eventFeedQuerySchema = closedObject(
  {
    after: { ...position('events strictly after this locationEventSequence'), default: 0 },
    limit: { ...int(1, 1000), default: 100 },
    types: {
      type: 'string',
      pattern: `^(${TYPE})(,(${TYPE}))*$`,
      description: `comma-separated event types (${EVENT_TYPES.join(', ')}); every type when absent`,
    },
  } as const,
  [],
);

/** A feed entry: the delivered body with the event's id, which is every delivery's `webhook-id`. */
const withId = <S extends { properties: Record<string, unknown> }>(body: S) =>
  responseObject({
    id: { ...atLeast(1), description: 'the webhook-id of every delivery of this event' },
    ...(body.properties as S['properties']),
  });

export const feedEventSchema = {
  oneOf: [
    withId(floorplanPublishedEventSchema),
    withId(tableOccupiedEventSchema),
    withId(tableFreedEventSchema),
    withId(tableSpendUpdatedEventSchema),
    withId(tableStatusChangedEventSchema),
    withId(orderClosedEventSchema),
  ],
  description: '{id, type, timestamp, data}: the body every delivery of the event carries, with its id',
} as const;

export const eventFeedResponseSchema = responseObject({
  events: { type: 'array', items: feedEventSchema },
  nextAfter: position(
    'the last returned sequence (after, when none was returned): the next page starts after it',
  ),
  hasMore: { type: 'boolean', description: 'true when events after nextAfter are already there' },
  oldestRetainedSequence: {
    ...int(1, Number.MAX_SAFE_INTEGER),
    description: 'the oldest sequence retention still holds; an after below it minus 1 is 410 events_expired',
  },
} as const);

const { properties: order } = orderResponseSchema;

export const tableStateOrderSchema = responseObject({
  id: order.id,
  reservationExternalId: order.reservationExternalId,
  covers: order.covers,
  spendMinor: order.spendMinor,
  currency: order.currency,
  openedAt: order.openedAt,
  tableIds: order.tableIds,
  serviceStatus: order.serviceStatus,
} as const);

export const tableStateSchema = responseObject({
  tableId: atLeast(1),
  label: atLeast(1),
  roomId: atLeast(1),
  active: { type: 'boolean' },
  status: { type: 'string', enum: ['free', 'occupied'] },
  order: { anyOf: [tableStateOrderSchema, { type: 'null' }], description: 'the open order on the table' },
} as const);

export const tableStateResponseSchema = responseObject({
  asOfSequence: position(
    'the last locationEventSequence this state reflects: read the feed with after=asOfSequence to stay in step',
  ),
  floorplanVersion: int(1, 2_147_483_647),
  tables: { type: 'array', items: tableStateSchema },
} as const);

/** Exactly one of the two. */
export const recoverRequestSchema = {
  ...closedObject(
    {
      afterSequence: position('queue the events strictly after this locationEventSequence'),
      since: dateTime('queue the events whose timestamp is strictly after this instant'),
    } as const,
    [],
  ),
  minProperties: 1,
  maxProperties: 1,
  description: 'exactly one of afterSequence and since',
} as const;

export const recoverResponseSchema = responseObject({
  queued: { ...int(0, Number.MAX_SAFE_INTEGER), description: 'how many deliveries were queued' },
} as const);
