import { EntitySchema } from 'typeorm';
import { instant, int, jsonb, type InstantText } from './columns';

export interface PublishedTableJson {
  id: string;
  label: string;
  shape: string;
  seatCount: number;
  minCovers: number;
  maxCovers: number;
  active: boolean;
  x: number;
  y: number;
  rotation: number;
}

export interface PublishedRoomJson {
  id: string;
  name: string;
  order: number;
  tables: PublishedTableJson[];
}

/** The immutable snapshot of one publish. */
export interface FloorPlanVersionRow {
  location_id: string;
  version: number;
  published_at: InstantText;
  snapshot: { rooms: PublishedRoomJson[] };
}

export const floorPlanVersionSchema = new EntitySchema<FloorPlanVersionRow>({
  name: 'floor_plan_version',
  tableName: 'floor_plan_versions',
  columns: {
    location_id: { type: 'uuid', primary: true },
    version: { type: 'integer', primary: true },
    published_at: instant(),
    snapshot: jsonb(),
  },
});
