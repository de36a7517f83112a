import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { componentSchemas, type ComponentName, type QueryName } from '../schemas/components';
import { DATE_TIME_INPUT_FORMAT } from '../schemas/primitives';
import type * as W from '../wire-types';
import { invalid, valid, type Checked } from './checked';
import { toDetails } from './error-details';
import { dateTimeFormat } from './formats';
import { coerceQuery } from './query';

export interface ContractValidator {
  /** Any named schema (requests, responses, webhook bodies); the typed checks below are preferred. */
  check(name: ComponentName, value: unknown): Checked<unknown>;
  /** A query object (e.g. Express `req.query`) after integer coercion. */
  query(name: QueryName, raw: unknown): Checked<unknown>;

  reservationRequest(body: unknown): Checked<W.ReservationRequest>;
  reservationListQuery(raw: unknown): Checked<W.ReservationListQuery>;
  floorPlanImportRequest(body: unknown): Checked<W.FloorPlanImportRequest>;
  webhookEndpointRequest(body: unknown): Checked<W.WebhookEndpointRequest>;
  webhookEndpointCreateRequest(body: unknown): Checked<W.WebhookEndpointCreateRequest>;
  webhookEndpointPatchRequest(body: unknown): Checked<W.WebhookEndpointPatchRequest>;
  deliveryListQuery(raw: unknown): Checked<W.DeliveryListQuery>;
  locationCreateRequest(body: unknown): Checked<W.LocationCreateRequest>;
  tablePatchRequest(body: unknown): Checked<W.TablePatchRequest>;
  orderCreateRequest(body: unknown): Checked<W.OrderCreateRequest>;
  orderItemRequest(body: unknown): Checked<W.OrderItemRequest>;
  orderMoveRequest(body: unknown): Checked<W.OrderMoveRequest>;
  orderDiscountRequest(body: unknown): Checked<W.OrderDiscountRequest>;
  orderPaymentRequest(body: unknown): Checked<W.OrderPaymentRequest>;
  orderServiceStatusRequest(body: unknown): Checked<W.OrderServiceStatusRequest>;
  orderListQuery(raw: unknown): Checked<W.OrderListQuery>;
  eventFeedQuery(raw: unknown): Checked<W.EventFeedQuery>;
  recoverRequest(body: unknown): Checked<W.RecoverRequest>;
  providerCreateRequest(body: unknown): Checked<W.ProviderCreateRequest>;
  providerKeyRequest(body: unknown): Checked<W.ProviderKeyRequest>;
  pageQuery(raw: unknown): Checked<W.PageQuery>;
  connectionListQuery(raw: unknown): Checked<W.ConnectionListQuery>;
  webhookEventBody(body: unknown): Checked<W.WebhookEventBody | W.WebhookTestEventBody>;
}

/** The one ajv instance of the contract, compiled once at start (strict, all errors, no defaults). */
export function createAjv(): Ajv2020 {
  return new Ajv2020({
    allErrors: true,
    strict: true,
    useDefaults: false,
    coerceTypes: false,
    formats: { 'date-time': dateTimeFormat, [DATE_TIME_INPUT_FORMAT]: dateTimeFormat },
  });
}

export interface ValidatorOptions {
  /**
   * `eager` (the default, for a server): every schema is compiled at once, so a broken
   * schema stops the start and no request waits for a compilation. `on-first-use`: each
   * when first used, for a one-shot process (the CLI) that checks one or two shapes.
   */
  compile?: 'eager' | 'on-first-use';
}

export function createValidator(options: ValidatorOptions = {}): ContractValidator {
  const ajv = createAjv();
  const compiled = new Map<ComponentName, ValidateFunction>();
  const compile = (name: ComponentName) => {
    const fn = ajv.compile(componentSchemas[name]);
    compiled.set(name, fn);
    return fn;
  };
  if (options.compile !== 'on-first-use') {
    for (const name of Object.keys(componentSchemas)) compile(name as ComponentName);
  }
  // The compiled schema is the type's own source, so a value it accepts has that type.
  const check = <T = unknown>(name: ComponentName, value: unknown): Checked<T> => {
    const fn = compiled.get(name) ?? compile(name);
    return fn(value) ? valid(value as T) : invalid(toDetails(fn.errors));
  };
  const request = <T>(name: ComponentName, value: unknown) => check<T>(name, value);
  const query = <T = unknown>(name: QueryName, raw: unknown) => check<T>(name, coerceQuery(name, raw));

  return {
    check,
    query,
    reservationRequest: (body) => request('ReservationRequest', body),
    reservationListQuery: (raw) => query('ReservationListQuery', raw),
    floorPlanImportRequest: (body) => request('FloorPlanImportRequest', body),
    webhookEndpointRequest: (body) => request('WebhookEndpointRequest', body),
    webhookEndpointCreateRequest: (body) => request('WebhookEndpointCreateRequest', body),
    webhookEndpointPatchRequest: (body) => request('WebhookEndpointPatchRequest', body),
    deliveryListQuery: (raw) => query('DeliveryListQuery', raw),
    locationCreateRequest: (body) => request('LocationCreateRequest', body),
    tablePatchRequest: (body) => request('TablePatchRequest', body),
    orderCreateRequest: (body) => request('OrderCreateRequest', body),
    orderItemRequest: (body) => request('OrderItemRequest', body),
    orderMoveRequest: (body) => request('OrderMoveRequest', body),
    orderDiscountRequest: (body) => request('OrderDiscountRequest', body),
    orderPaymentRequest: (body) => request('OrderPaymentRequest', body),
    orderServiceStatusRequest: (body) => request('OrderServiceStatusRequest', body),
    orderListQuery: (raw) => query('OrderListQuery', raw),
    eventFeedQuery: (raw) => query('EventFeedQuery', raw),
    recoverRequest: (body) => request('RecoverRequest', body),
    providerCreateRequest: (body) => request('ProviderCreateRequest', body),
    providerKeyRequest: (body) => request('ProviderKeyRequest', body),
    pageQuery: (raw) => query('PageQuery', raw),
    connectionListQuery: (raw) => query('ConnectionListQuery', raw),
    webhookEventBody: (body) => {
      const type = typeof body === 'object' && body !== null ? (body as { type?: unknown }).type : undefined;
      const name = EVENT_SCHEMAS[String(type)];
      if (name === undefined) {
        return invalid([
          { path: '/type', message: `must be one of: ${Object.keys(EVENT_SCHEMAS).join(', ')}` },
        ]);
      }
      return check<W.WebhookEventBody | W.WebhookTestEventBody>(name, body);
    },
  };
}

const EVENT_SCHEMAS: Record<string, ComponentName> = {
  'floorplan.published': 'FloorplanPublishedEvent',
  'table.occupied': 'TableOccupiedEvent',
  'table.freed': 'TableFreedEvent',
  'table.spend_updated': 'TableSpendUpdatedEvent',
  'table.status_changed': 'TableStatusChangedEvent',
  'order.closed': 'OrderClosedEvent',
  'connection.granted': 'ConnectionGrantedEvent',
  'connection.revoked': 'ConnectionRevokedEvent',
  'webhook.test': 'WebhookTestEvent',
};
