/** Where the table is in its meal, as the till reports it; providers use it to predict table turns. */
export const SERVICE_STATUSES = [
  'seated',
  'starters',
  'mains',
  'desserts',
  'bill_requested',
  'paid',
] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
