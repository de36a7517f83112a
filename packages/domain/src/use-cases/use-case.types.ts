import type { Location } from '../access/location';
import type { EventType } from '../events/domain-event';
import type {
  FloorPlanImportInput,
  ImportResult,
  PublishedFloorPlan,
  Table,
  TablePatch,
  WorkingPlan,
} from '../floorplan/floor-plan';
import type { Order, OrderStatus } from '../orders/order';
import type { Reservation, ReservationCursor, ReservationInput } from '../reservations/reservation';
import type { Instant } from '../shared/instant';
import type { Outcome } from '../shared/outcome';
import type { DeliveryCursor, DeliveryStatus, WebhookDelivery } from '../webhooks/webhook-delivery';
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint';
import type { Deps } from './deps';

/**
 * The signature of every use case. Each is a function of its ports and one command;
 * it returns an Outcome with the contract's codes and never an HTTP status.
 */
export type UseCase<C, R> = (deps: Deps, command: C) => Promise<Outcome<R>>;

export interface ReservationWriteResult {
  outcome: 'applied' | 'stale';
  reservation: Reservation;
}

export interface Page<T, C> {
  items: T[];
  /** Where the next page starts; null on the last page. */
  next: C | null;
}

// Reservations (provider)
export type CreateReservation = UseCase<
  { locationId: string; input: ReservationInput },
  ReservationWriteResult
>;
/** `externalId` is the path one; a different `input.externalId` is `validation_failed`. */
export type UpdateReservation = UseCase<
  { locationId: string; externalId: string; input: ReservationInput },
  ReservationWriteResult
>;
export type ListReservations = UseCase<
  { locationId: string; from: Instant; to: Instant; limit: number; after: ReservationCursor | null },
  Page<Reservation, ReservationCursor>
>;

// Floor plan (provider and operator)
export type ImportFloorPlan = UseCase<{ locationId: string; input: FloorPlanImportInput }, ImportResult>;
export type GetPublishedFloorPlan = UseCase<{ locationId: string }, PublishedFloorPlan>;
export type GetWorkingPlan = UseCase<{ locationId: string }, WorkingPlan>;
export type PublishFloorPlan = UseCase<{ locationId: string }, { version: number; publishedAt: Instant }>;
export type EditTable = UseCase<{ locationId: string; tableId: string; patch: TablePatch }, Table>;

// Till orders (operator)
export type OpenWalkInOrder = UseCase<{ locationId: string; tableIds: string[]; covers: number }, Order>;
export type AddOrderItem = UseCase<
  { locationId: string; orderId: string; label: string; amountMinor: number; quantity: number },
  Order
>;
export type MoveOrder = UseCase<{ locationId: string; orderId: string; tableIds: string[] }, Order>;
export type ChangeOrderCovers = UseCase<{ locationId: string; orderId: string; covers: number }, Order>;
/** `closed`: paid and done; `voided`: cancelled on the till. Both free the tables. */
export type FinishOrder = UseCase<{ locationId: string; orderId: string; how: 'closed' | 'voided' }, Order>;
export type ListOrders = UseCase<{ locationId: string; status: OrderStatus | null }, { orders: Order[] }>;

// Locations and keys (operator), authentication (provider)
export type CreateLocation = UseCase<{ name: string; brand: string; currency: string }, Location>;
export type IssueApiKey = UseCase<{ locationId: string }, { id: string; key: string; createdAt: Instant }>;
export type RevokeApiKey = UseCase<{ locationId: string; keyId: string }, { keyId: string }>;
/** Any failure is `unauthorized`. */
export type Authenticate = UseCase<{ key: string }, { locationId: string; keyId: string }>;

// Webhook endpoint and deliveries (provider)
export type RegisterWebhookEndpoint = UseCase<
  { locationId: string; url: string; events: EventType[] | null },
  WebhookEndpoint
>;
export type GetWebhookEndpoint = UseCase<{ locationId: string }, WebhookEndpoint>;
export type DeleteWebhookEndpoint = UseCase<{ locationId: string }, { deleted: true }>;
/** The old secret keeps signing for 24 h beside the new one. */
export type RotateWebhookSecret = UseCase<{ locationId: string }, WebhookEndpoint>;
export type ListWebhookDeliveries = UseCase<
  { locationId: string; status: DeliveryStatus | null; limit: number; after: DeliveryCursor | null },
  Page<WebhookDelivery, DeliveryCursor>
>;
export type RedeliverWebhook = UseCase<{ locationId: string; deliveryId: string }, { deliveryId: string }>;
