import { formatMinor } from './money';
import type { Order } from './types';

/** Each table an open order stands on, with that order. */
export function ordersByTable(orders: readonly Order[]): Map<string, Order> {
  const byTable = new Map<string, Order>();
  for (const order of orders) {
    if (order.status !== 'open') continue;
    for (const tableId of order.tableIds) byTable.set(tableId, order);
  }
  return byTable;
}

/** What the plan shows on an occupied table: covers and the check's total. */
export function occupancyBadge(order: Order): string {
  return `${order.covers} cov · ${formatMinor(order.check.totalMinor, order.currency)}`;
}
