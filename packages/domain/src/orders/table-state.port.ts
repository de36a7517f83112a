import type { PublishedFloorPlan } from '../floorplan/floor-plan';
import type { Order } from './order';

/** The state a provider rebuilds from: read in one snapshot with the sequence it reflects. */
export interface TableStateRead {
  /** The location's last committed sequence at the snapshot (0 before any event). */
  asOfSequence: number;
  plan: PublishedFloorPlan | null;
  /** Every open order of the location at the snapshot. */
  openOrders: Order[];
}

/** The table-state snapshot's read side, outside any transaction. */
export interface TableStateQueries {
  /** The location's last sequence, published plan and open orders, from one snapshot. */
  read(locationId: string): Promise<TableStateRead>;
}
