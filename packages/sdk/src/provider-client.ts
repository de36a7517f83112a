import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { ProviderApiError } from './provider-api-error';
import type {
  DeliveryListResponse,
  EventFeedResponse,
  FloorPlanImportRequest,
  ImportResult,
  Order,
  OrderCreateRequest,
  OrderItemRequest,
  OrderListResponse,
  OrderMoveRequest,
  PublishResponse,
  ProviderPaths,
  PublishedFloorPlan,
  QueryOf,
  RecoverRequest,
  RecoverResponse,
  RedeliverResponse,
  ReservationListResponse,
  ReservationRequest,
  ReservationWriteResponse,
  TableStateResponse,
  WebhookEndpoint,
  WebhookEndpointRequest,
  WebhookTestResult,
} from './schemas';

export interface ProviderClientOptions {
  /** The service's origin, e.g. `https://pis.example.com` (the paths carry `/api/provider/v1`). */
  baseUrl: string;
  /** The location's key, `<brand>_sk_live_<secret>` (a sandbox location's: `<brand>_sk_test_<secret>`). */
  apiKey: string;
  /** Another fetch (a proxy agent, a test double); globalThis.fetch otherwise. */
  fetch?: ClientOptions['fetch'];
}

/**
 * One method per provider operation. Each resolves with the documented success body and
 * rejects with a `ProviderApiError` for any other answer (network failures reject as fetch does).
 */
export interface ProviderClient {
  createReservation(body: ReservationRequest): Promise<ReservationWriteResponse>;
  /** Full-body update; a write older than or equal to the stored one answers outcome `stale`. */
  updateReservation(externalId: string, body: ReservationRequest): Promise<ReservationWriteResponse>;
  listReservations(query: QueryOf<'listReservations'>): Promise<ReservationListResponse>;
  getFloorPlan(): Promise<PublishedFloorPlan>;
  importFloorPlan(body: FloorPlanImportRequest): Promise<ImportResult>;
  getWebhookEndpoint(): Promise<WebhookEndpoint>;
  putWebhookEndpoint(body: WebhookEndpointRequest): Promise<WebhookEndpoint>;
  deleteWebhookEndpoint(): Promise<void>;
  rotateWebhookSecret(): Promise<WebhookEndpoint>;
  /** One signed `webhook.test` to the endpoint now; resolves with what the receiver answered. */
  testWebhookEndpoint(): Promise<WebhookTestResult>;
  listWebhookDeliveries(query?: QueryOf<'listWebhookDeliveries'>): Promise<DeliveryListResponse>;
  redeliverWebhook(deliveryId: string): Promise<RedeliverResponse>;
  /** One page of the event feed; `readEventFeed` reads it page after page. */
  listEvents(query?: QueryOf<'listEvents'>): Promise<EventFeedResponse>;
  /** Every published table with its open order, as of `asOfSequence`. */
  getTableState(): Promise<TableStateResponse>;
  /** Queues every retained event after `afterSequence` (or `since`) to the endpoint again. */
  recoverWebhooks(body: RecoverRequest): Promise<RecoverResponse>;
  /** The till simulator of a sandbox location (test keys only; a live key is rejected with `sandbox_only`). */
  readonly sandbox: SandboxClient;
  /** The openapi-fetch client underneath, typed by the document, for what the methods do not cover. */
  readonly raw: Client<ProviderPaths>;
}

/** The till simulator: what the restaurant's staff would do, on the test key's own location. */
export interface SandboxClient {
  publishFloorPlan(): Promise<PublishResponse>;
  openWalkInOrder(body: OrderCreateRequest): Promise<Order>;
  listOrders(query?: QueryOf<'sandboxListOrders'>): Promise<OrderListResponse>;
  addOrderItem(orderId: string, body: OrderItemRequest): Promise<Order>;
  moveOrder(orderId: string, body: OrderMoveRequest): Promise<Order>;
  closeOrder(orderId: string): Promise<Order>;
  voidOrder(orderId: string): Promise<Order>;
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

async function succeeded<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw ProviderApiError.fromResponse(response, error);
  return data as T;
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const raw = createClient<ProviderPaths>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const byExternalId = (externalId: string) => ({ params: { path: { externalId } } });
  const byOrderId = (orderId: string) => ({ params: { path: { orderId } } });
  const sandbox: SandboxClient = {
    publishFloorPlan: () => succeeded(raw.POST('/api/provider/v1/sandbox/floorplan/publish')),
    openWalkInOrder: (body) => succeeded(raw.POST('/api/provider/v1/sandbox/orders', { body })),
    listOrders: (query = {}) => succeeded(raw.GET('/api/provider/v1/sandbox/orders', { params: { query } })),
    addOrderItem: (orderId, body) =>
      succeeded(raw.POST('/api/provider/v1/sandbox/orders/{orderId}/items', { ...byOrderId(orderId), body })),
    moveOrder: (orderId, body) =>
      succeeded(raw.POST('/api/provider/v1/sandbox/orders/{orderId}/move', { ...byOrderId(orderId), body })),
    closeOrder: (orderId) =>
      succeeded(raw.POST('/api/provider/v1/sandbox/orders/{orderId}/close', byOrderId(orderId))),
    voidOrder: (orderId) =>
      succeeded(raw.POST('/api/provider/v1/sandbox/orders/{orderId}/void', byOrderId(orderId))),
  };
  return {
    raw,
    sandbox,
    createReservation: (body) => succeeded(raw.POST('/api/provider/v1/reservations', { body })),
    updateReservation: (externalId, body) =>
      succeeded(raw.PUT('/api/provider/v1/reservations/{externalId}', { ...byExternalId(externalId), body })),
    listReservations: (query) => succeeded(raw.GET('/api/provider/v1/reservations', { params: { query } })),
    getFloorPlan: () => succeeded(raw.GET('/api/provider/v1/floorplan')),
    importFloorPlan: (body) => succeeded(raw.POST('/api/provider/v1/floorplan/import', { body })),
    getWebhookEndpoint: () => succeeded(raw.GET('/api/provider/v1/webhook-endpoint')),
    putWebhookEndpoint: (body) => succeeded(raw.PUT('/api/provider/v1/webhook-endpoint', { body })),
    deleteWebhookEndpoint: async () => {
      await succeeded(raw.DELETE('/api/provider/v1/webhook-endpoint'));
    },
    rotateWebhookSecret: () => succeeded(raw.POST('/api/provider/v1/webhook-endpoint/rotate-secret')),
    testWebhookEndpoint: () => succeeded(raw.POST('/api/provider/v1/webhook-endpoint/test')),
    listWebhookDeliveries: (query = {}) =>
      succeeded(raw.GET('/api/provider/v1/webhook-deliveries', { params: { query } })),
    listEvents: (query = {}) => succeeded(raw.GET('/api/provider/v1/events', { params: { query } })),
    getTableState: () => succeeded(raw.GET('/api/provider/v1/tables/state')),
    recoverWebhooks: (body) => succeeded(raw.POST('/api/provider/v1/webhook-endpoint/recover', { body })),
    redeliverWebhook: (deliveryId) =>
      succeeded(
        raw.POST('/api/provider/v1/webhook-deliveries/{deliveryId}/redeliver', {
          params: { path: { deliveryId } },
        }),
      ),
  };
}
