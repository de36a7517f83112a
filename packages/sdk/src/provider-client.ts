import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { ProviderApiError } from './provider-api-error';
import { IDEMPOTENCY_KEY, retryingFetch, type RetryOptions } from './retry';
import type {
  ConnectionListResponse,
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
  ProviderConnection,
  QueryOf,
  RecoverRequest,
  RecoverResponse,
  RedeliverResponse,
  ReservationListResponse,
  ScopedWebhookEndpoint,
  ScopedWebhookEndpointList,
  ReservationRequest,
  ReservationWriteResponse,
  TableStateResponse,
  WebhookEndpoint,
  WebhookEndpointCreateRequest,
  WebhookEndpointPatchRequest,
  WebhookEndpointRequest,
  WebhookTestResult,
} from './schemas';

export interface ProviderClientOptions {
  /** The service's origin, e.g. `https://pis.example.com` (the paths carry `/api/provider/v1`). */
  baseUrl: string;
  /**
   * A location's key, `<brand>_sk_live_<secret>` (a sandbox location's: `<brand>_sk_test_<secret>`),
   * or a provider's key, `<brand>_pk_live_<secret>` / `<brand>_pk_test_<secret>`, which acts for
   * every location its provider is connected to and names one per call (`locationId`).
   */
  apiKey: string;
  /**
   * The location every call acts for, sent as `Location-Id` (required with a provider key on
   * every location route). `forLocation(id)` gives a client for another; a call's own
   * `locationId` wins over both.
   */
  locationId?: string;
  /** The client's own retries (see `RetryOptions`); `{ retries: 0 }` turns them off. */
  retry?: RetryOptions;
  /** Another fetch (a proxy agent, a test double); globalThis.fetch otherwise. */
  fetch?: ClientOptions['fetch'];
}

/** What one call may set beside its parameters. */
export interface CallOptions {
  /**
   * The location this call acts for (`Location-Id`), over the client's; `null` sends none, so a
   * provider key's call names the provider itself (its provider-wide webhook endpoints).
   */
  locationId?: string | null;
  /**
   * The `Idempotency-Key` of a POST, over the one the client generates: pass your own to make
   * a retry of yours (after a crash, from a queue) safe too.
   */
  idempotencyKey?: string;
  /** Aborts the call, its retries and the wait between them. */
  signal?: AbortSignal;
}

/**
 * One method per provider operation. Each resolves with the documented success body and
 * rejects with a `ProviderApiError` for any other answer (network failures reject as fetch does).
 */
export interface ProviderClient {
  /** The location this client's calls act for (`Location-Id`), if any. */
  readonly locationId: string | null;
  /** A client with the same key and settings whose every call acts for `locationId`. */
  forLocation(locationId: string): ProviderClient;
  /**
   * One page of the locations the key's provider is connected to, active and revoked, by
   * `grantedAt` (a location key: its one location). Sends no `Location-Id`.
   */
  listConnections(query?: QueryOf<'listConnections'>, options?: CallOptions): Promise<ConnectionListResponse>;
  /** Every connection, page after page (`listConnections` following `nextCursor`). */
  readConnections(options?: CallOptions & { pageSize?: number }): AsyncGenerator<ProviderConnection>;
  createReservation(body: ReservationRequest, options?: CallOptions): Promise<ReservationWriteResponse>;
  /** Full-body update; a write older than or equal to the stored one answers outcome `stale`. */
  updateReservation(
    externalId: string,
    body: ReservationRequest,
    options?: CallOptions,
  ): Promise<ReservationWriteResponse>;
  listReservations(
    query: QueryOf<'listReservations'>,
    options?: CallOptions,
  ): Promise<ReservationListResponse>;
  getFloorPlan(options?: CallOptions): Promise<PublishedFloorPlan>;
  importFloorPlan(body: FloorPlanImportRequest, options?: CallOptions): Promise<ImportResult>;
  getWebhookEndpoint(options?: CallOptions): Promise<WebhookEndpoint>;
  putWebhookEndpoint(body: WebhookEndpointRequest, options?: CallOptions): Promise<WebhookEndpoint>;
  deleteWebhookEndpoint(options?: CallOptions): Promise<void>;
  rotateWebhookSecret(options?: CallOptions): Promise<WebhookEndpoint>;
  /** One signed `webhook.test` to the endpoint now; resolves with what the receiver answered. */
  testWebhookEndpoint(options?: CallOptions): Promise<WebhookTestResult>;
  listWebhookDeliveries(
    query?: QueryOf<'listWebhookDeliveries'>,
    options?: CallOptions,
  ): Promise<DeliveryListResponse>;
  redeliverWebhook(deliveryId: string, options?: CallOptions): Promise<RedeliverResponse>;
  /** One page of the event feed; `readEventFeed` reads it page after page. */
  listEvents(query?: QueryOf<'listEvents'>, options?: CallOptions): Promise<EventFeedResponse>;
  /** Every published table with its open order, as of `asOfSequence`. */
  getTableState(options?: CallOptions): Promise<TableStateResponse>;
  /** Queues every retained event after `afterSequence` (or `since`) to the endpoint again. */
  recoverWebhooks(body: RecoverRequest, options?: CallOptions): Promise<RecoverResponse>;
  /** The till simulator of a sandbox location (test keys only; a live key is rejected with `sandbox_only`). */
  readonly sandbox: SandboxClient;
  /**
   * The webhook endpoints of the scope a call names: the location's (a location key, or a
   * provider key with a location) or, with a provider key and no location, the provider's own.
   */
  readonly webhookEndpoints: WebhookEndpointsClient;
  /** The openapi-fetch client underneath, typed by the document, for what the methods do not cover. */
  readonly raw: Client<ProviderPaths>;
}

/**
 * Several webhook endpoints per scope (at most ten), each with its own secret, event types,
 * retries, delivery log (`listWebhookDeliveries({ endpointId })`) and health. An id of another
 * scope is `not_found`, as an unknown one is.
 */
export interface WebhookEndpointsClient {
  create(body: WebhookEndpointCreateRequest, options?: CallOptions): Promise<ScopedWebhookEndpoint>;
  /** The scope's endpoints, oldest first. */
  list(options?: CallOptions): Promise<ScopedWebhookEndpointList>;
  get(endpointId: string, options?: CallOptions): Promise<ScopedWebhookEndpoint>;
  /** Changes what the body names; a disabled endpoint is enabled again. */
  update(
    endpointId: string,
    body: WebhookEndpointPatchRequest,
    options?: CallOptions,
  ): Promise<ScopedWebhookEndpoint>;
  delete(endpointId: string, options?: CallOptions): Promise<void>;
  /** A new secret; the previous one keeps signing beside it for 24 h. */
  rotateSecret(endpointId: string, options?: CallOptions): Promise<ScopedWebhookEndpoint>;
  /** One signed `webhook.test` to this endpoint now; resolves with what the receiver answered. */
  test(endpointId: string, options?: CallOptions): Promise<WebhookTestResult>;
  /** Queues the retained events after a point to this endpoint again. */
  recover(endpointId: string, body: RecoverRequest, options?: CallOptions): Promise<RecoverResponse>;
}

/** The till simulator: what the restaurant's staff would do, on the test key's own location. */
export interface SandboxClient {
  publishFloorPlan(options?: CallOptions): Promise<PublishResponse>;
  openWalkInOrder(body: OrderCreateRequest, options?: CallOptions): Promise<Order>;
  listOrders(query?: QueryOf<'sandboxListOrders'>, options?: CallOptions): Promise<OrderListResponse>;
  addOrderItem(orderId: string, body: OrderItemRequest, options?: CallOptions): Promise<Order>;
  moveOrder(orderId: string, body: OrderMoveRequest, options?: CallOptions): Promise<Order>;
  closeOrder(orderId: string, options?: CallOptions): Promise<Order>;
  voidOrder(orderId: string, options?: CallOptions): Promise<Order>;
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

async function succeeded<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw ProviderApiError.fromResponse(response, error);
  return data as T;
}

/** The headers and signal of one call's options, for openapi-fetch's request init. */
function init(options: CallOptions = {}) {
  return {
    headers: {
      // null removes the client's Location-Id for this call (openapi-fetch drops a null header).
      ...(options.locationId !== undefined ? { 'Location-Id': options.locationId } : {}),
      ...(options.idempotencyKey !== undefined ? { [IDEMPOTENCY_KEY]: options.idempotencyKey } : {}),
    },
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const base =
    options.fetch ?? ((input: Request, requestInit?: RequestInit) => globalThis.fetch(input, requestInit));
  const raw = createClient<ProviderPaths>({
    baseUrl: options.baseUrl,
    headers: {
      Authorization: `Bearer ${options.apiKey}`,
      ...(options.locationId !== undefined ? { 'Location-Id': options.locationId } : {}),
    },
    fetch: retryingFetch(base, options.retry),
  });
  const byExternalId = (externalId: string) => ({ path: { externalId } });
  const byOrderId = (orderId: string) => ({ path: { orderId } });
  const byEndpointId = (endpointId: string) => ({ path: { endpointId } });
  const webhookEndpoints: WebhookEndpointsClient = {
    create: (body, o) => succeeded(raw.POST('/api/provider/v1/webhook-endpoints', { ...init(o), body })),
    list: (o) => succeeded(raw.GET('/api/provider/v1/webhook-endpoints', init(o))),
    get: (endpointId, o) =>
      succeeded(
        raw.GET('/api/provider/v1/webhook-endpoints/{endpointId}', {
          ...init(o),
          params: byEndpointId(endpointId),
        }),
      ),
    update: (endpointId, body, o) =>
      succeeded(
        raw.PATCH('/api/provider/v1/webhook-endpoints/{endpointId}', {
          ...init(o),
          params: byEndpointId(endpointId),
          body,
        }),
      ),
    delete: async (endpointId, o) => {
      await succeeded(
        raw.DELETE('/api/provider/v1/webhook-endpoints/{endpointId}', {
          ...init(o),
          params: byEndpointId(endpointId),
        }),
      );
    },
    rotateSecret: (endpointId, o) =>
      succeeded(
        raw.POST('/api/provider/v1/webhook-endpoints/{endpointId}/rotate-secret', {
          ...init(o),
          params: byEndpointId(endpointId),
        }),
      ),
    test: (endpointId, o) =>
      succeeded(
        raw.POST('/api/provider/v1/webhook-endpoints/{endpointId}/test', {
          ...init(o),
          params: byEndpointId(endpointId),
        }),
      ),
    recover: (endpointId, body, o) =>
      succeeded(
        raw.POST('/api/provider/v1/webhook-endpoints/{endpointId}/recover', {
          ...init(o),
          params: byEndpointId(endpointId),
          body,
        }),
      ),
  };
  const sandbox: SandboxClient = {
    publishFloorPlan: (o) => succeeded(raw.POST('/api/provider/v1/sandbox/floorplan/publish', init(o))),
    openWalkInOrder: (body, o) =>
      succeeded(raw.POST('/api/provider/v1/sandbox/orders', { ...init(o), body })),
    listOrders: (query = {}, o) =>
      succeeded(raw.GET('/api/provider/v1/sandbox/orders', { ...init(o), params: { query } })),
    addOrderItem: (orderId, body, o) =>
      succeeded(
        raw.POST('/api/provider/v1/sandbox/orders/{orderId}/items', {
          ...init(o),
          params: byOrderId(orderId),
          body,
        }),
      ),
    moveOrder: (orderId, body, o) =>
      succeeded(
        raw.POST('/api/provider/v1/sandbox/orders/{orderId}/move', {
          ...init(o),
          params: byOrderId(orderId),
          body,
        }),
      ),
    closeOrder: (orderId, o) =>
      succeeded(
        raw.POST('/api/provider/v1/sandbox/orders/{orderId}/close', {
          ...init(o),
          params: byOrderId(orderId),
        }),
      ),
    voidOrder: (orderId, o) =>
      succeeded(
        raw.POST('/api/provider/v1/sandbox/orders/{orderId}/void', {
          ...init(o),
          params: byOrderId(orderId),
        }),
      ),
  };
  // The connections are the provider's, not a location's: never with a Location-Id.
  const listConnections = (query: QueryOf<'listConnections'> = {}, o?: CallOptions) => {
    const { headers, ...rest } = init(o);
    return succeeded(
      raw.GET('/api/provider/v1/connections', {
        ...rest,
        headers: { ...headers, 'Location-Id': null },
        params: { query },
      }),
    );
  };
  return {
    raw,
    sandbox,
    webhookEndpoints,
    locationId: options.locationId ?? null,
    forLocation: (locationId) => createProviderClient({ ...options, locationId }),
    listConnections,
    async *readConnections(o = {}) {
      const { pageSize, ...call } = o;
      let cursor: string | undefined;
      do {
        const page = await listConnections(
          { ...(pageSize !== undefined ? { limit: pageSize } : {}), ...(cursor ? { cursor } : {}) },
          call,
        );
        yield* page.connections;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },
    createReservation: (body, o) =>
      succeeded(raw.POST('/api/provider/v1/reservations', { ...init(o), body })),
    updateReservation: (externalId, body, o) =>
      succeeded(
        raw.PUT('/api/provider/v1/reservations/{externalId}', {
          ...init(o),
          params: byExternalId(externalId),
          body,
        }),
      ),
    listReservations: (query, o) =>
      succeeded(raw.GET('/api/provider/v1/reservations', { ...init(o), params: { query } })),
    getFloorPlan: (o) => succeeded(raw.GET('/api/provider/v1/floorplan', init(o))),
    importFloorPlan: (body, o) =>
      succeeded(raw.POST('/api/provider/v1/floorplan/import', { ...init(o), body })),
    getWebhookEndpoint: (o) => succeeded(raw.GET('/api/provider/v1/webhook-endpoint', init(o))),
    putWebhookEndpoint: (body, o) =>
      succeeded(raw.PUT('/api/provider/v1/webhook-endpoint', { ...init(o), body })),
    deleteWebhookEndpoint: async (o) => {
      await succeeded(raw.DELETE('/api/provider/v1/webhook-endpoint', init(o)));
    },
    rotateWebhookSecret: (o) =>
      succeeded(raw.POST('/api/provider/v1/webhook-endpoint/rotate-secret', init(o))),
    testWebhookEndpoint: (o) => succeeded(raw.POST('/api/provider/v1/webhook-endpoint/test', init(o))),
    listWebhookDeliveries: (query = {}, o) =>
      succeeded(raw.GET('/api/provider/v1/webhook-deliveries', { ...init(o), params: { query } })),
    listEvents: (query = {}, o) =>
      succeeded(raw.GET('/api/provider/v1/events', { ...init(o), params: { query } })),
    getTableState: (o) => succeeded(raw.GET('/api/provider/v1/tables/state', init(o))),
    recoverWebhooks: (body, o) =>
      succeeded(raw.POST('/api/provider/v1/webhook-endpoint/recover', { ...init(o), body })),
    redeliverWebhook: (deliveryId, o) =>
      succeeded(
        raw.POST('/api/provider/v1/webhook-deliveries/{deliveryId}/redeliver', {
          ...init(o),
          params: { path: { deliveryId } },
        }),
      ),
  };
}
