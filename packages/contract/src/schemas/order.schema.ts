import { COURSES, ORDER_STATUSES, SERVICE_STATUSES, TENDERS } from '@pis/domain';
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

const orderTableIds = () => ({ ...arrayOf(atLeast(1), 20), minItems: 1, uniqueItems: true }) as const;

export const orderCreateRequestSchema = closedObject(
  { tableIds: orderTableIds(), covers: int(1, MAX_INT32) } as const,
  ['tableIds', 'covers'],
);

/** The domain's lists (one definition each), under the names the schemas use. */
export const COURSE_VALUES = COURSES;
export const TENDER_VALUES = TENDERS;
export const SERVICE_STATUS_VALUES = SERVICE_STATUSES;

const money = () => int(0, MAX_INT32);

export const orderItemRequestSchema = closedObject(
  {
    label: text(1, 120),
    amountMinor: { ...money(), description: 'unit price in minor units, tax included' },
    quantity: { ...int(1, 1000), default: 1 },
    taxRateBps: { ...int(0, 10000), default: 0, description: 'tax rate in basis points (1000 = 10 %)' },
    course: { ...oneOfValues(COURSE_VALUES), default: 'other' },
  } as const,
  ['label', 'amountMinor'],
);

export const orderDiscountRequestSchema = closedObject(
  { label: text(1, 120), amountMinor: money() } as const,
  ['label', 'amountMinor'],
);

export const orderPaymentRequestSchema = closedObject(
  {
    amountMinor: { ...money(), description: 'what the payment settles, tip apart' },
    tipMinor: { ...money(), default: 0 },
    tender: oneOfValues(TENDER_VALUES),
  } as const,
  ['amountMinor', 'tender'],
);

export const orderServiceStatusRequestSchema = closedObject(
  { status: oneOfValues(SERVICE_STATUS_VALUES) } as const,
  ['status'],
);

export const checkItemSchema = responseObject({
  id: atLeast(1),
  label: text(1, 120),
  quantity: int(1, 1000),
  amountMinor: money(),
  taxRateBps: int(0, 10000),
  course: oneOfValues(COURSE_VALUES),
  voided: { type: 'boolean', description: 'kept on the check, excluded from the totals' },
} as const);

export const checkDiscountSchema = responseObject({
  id: atLeast(1),
  label: text(1, 120),
  amountMinor: money(),
} as const);

export const checkPaymentSchema = responseObject({
  id: atLeast(1),
  amountMinor: money(),
  tipMinor: money(),
  tender: oneOfValues(TENDER_VALUES),
  paidAt: utcDateTime(),
} as const);

/** The totals `table.spend_updated` carries (its `spendMinor` is the total). */
export const checkTotalsSchema = responseObject({
  subtotalMinor: { ...money(), description: 'Σ quantity × amountMinor of the live items' },
  discountMinor: { ...money(), description: 'min(Σ discounts, subtotal)' },
  taxMinor: { ...money(), description: 'tax included in the total, rounded half-even' },
  tipMinor: { ...money(), description: 'Σ tips' },
  paidMinor: { ...money(), description: 'Σ payment amounts, tips apart' },
  balanceMinor: { ...int(-MAX_INT32, MAX_INT32), description: 'total − paid; negative: a refund is due' },
} as const);

export const checkSchema = responseObject({
  items: { type: 'array', items: checkItemSchema },
  discounts: { type: 'array', items: checkDiscountSchema },
  payments: { type: 'array', items: checkPaymentSchema },
  subtotalMinor: checkTotalsSchema.properties.subtotalMinor,
  discountMinor: checkTotalsSchema.properties.discountMinor,
  taxMinor: checkTotalsSchema.properties.taxMinor,
  totalMinor: { ...money(), description: "subtotal − discount; equals the order's spendMinor" },
  tipMinor: checkTotalsSchema.properties.tipMinor,
  paidMinor: checkTotalsSchema.properties.paidMinor,
  balanceMinor: checkTotalsSchema.properties.balanceMinor,
} as const);

export const orderMoveRequestSchema = closedObject({ tableIds: orderTableIds() } as const, ['tableIds']);

export const orderResponseSchema = responseObject({
  id: atLeast(1),
  tableIds: { type: 'array', items: atLeast(1), minItems: 1 },
  covers: int(1, MAX_INT32),
  spendMinor: int(0, MAX_INT32),
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  status: oneOfValues(ORDER_STATUSES),
  reservationExternalId: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
  openedAt: utcDateTime(),
  closedAt: nullableUtcDateTime(),
  check: checkSchema,
  serviceStatus: { type: ['string', 'null'], enum: [...SERVICE_STATUS_VALUES, null] },
} as const);

export const orderListQuerySchema = closedObject({ status: oneOfValues(ORDER_STATUSES) } as const, []);

export const orderListResponseSchema = responseObject({
  orders: { type: 'array', items: orderResponseSchema },
} as const);
