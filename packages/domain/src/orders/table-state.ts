import type { PublishedFloorPlan } from '../floorplan/floor-plan';
import type { Order } from './order';
import type { TableStateRead } from './table-state.port';

export interface TableState {
  tableId: string;
  label: string;
  roomId: string;
  active: boolean;
  status: 'free' | 'occupied';
  /** The open order standing on the table, or null. */
  order: Order | null;
}

export interface TableStateSnapshot {
  asOfSequence: number;
  floorplanVersion: number;
  tables: TableState[];
}

/**
 * Every table of the published plan (rooms, then tables, in the plan's order) with the open
 * order standing on it, as of the snapshot's sequence.
 */
export function tableStateOf(read: TableStateRead & { plan: PublishedFloorPlan }): TableStateSnapshot {
  const holder = new Map<string, Order>();
  for (const order of read.openOrders) for (const tableId of order.tableIds) holder.set(tableId, order);
  return {
    asOfSequence: read.asOfSequence,
    floorplanVersion: read.plan.version,
    tables: read.plan.rooms.flatMap((room) =>
      room.tables.map((table) => {
        const order = holder.get(table.id) ?? null;
        return {
          tableId: table.id,
          label: table.label,
          roomId: room.id,
          active: table.active,
          status: order === null ? 'free' : 'occupied',
          order,
        };
      }),
    ),
  };
}
