import {
  MAX_INT32,
  arrayOf,
  atLeast,
  closedObject,
  utcDateTime,
  int,
  oneOfValues,
  responseObject,
  text,
  nullableUtcDateTime,
} from './primitives';

/** `voided` is the till's cancel (ours: decision 0032); `closed` is paid and done. */
export const ORDER_STATUS_VALUES = ['open', 'closed', 'voided'] as const;

const orderTableIds = () => ({ ...arrayOf(atLeast(1), 20), minItems: 1, uniqueItems: true }) as const;

export const orderCreateRequestSchema = closedObject(
  { tableIds: orderTableIds(), covers: int(1, MAX_INT32) } as const,
  ['tableIds', 'covers'],
);

export const orderItemRequestSchema = closedObject(
  { label: text(1, 120), amountMinor: int(0, MAX_INT32), quantity: { ...int(1, 1000), default: 1 } } as const,
  ['label', 'amountMinor'],
);

export const orderMoveRequestSchema = closedObject({ tableIds: orderTableIds() } as const, ['tableIds']);

export const orderResponseSchema = responseObject({
  id: atLeast(1),
  tableIds: { type: 'array', items: atLeast(1), minItems: 1 },
  covers: int(1, MAX_INT32),
  spendMinor: int(0, MAX_INT32),
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  status: oneOfValues(ORDER_STATUS_VALUES),
  reservationExternalId: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
  openedAt: utcDateTime(),
  closedAt: nullableUtcDateTime(),
} as const);

export const orderListQuerySchema = closedObject({ status: oneOfValues(ORDER_STATUS_VALUES) } as const, []);

export const orderListResponseSchema = responseObject({
  orders: { type: 'array', items: orderResponseSchema },
} as const);
