import { EntitySchema } from 'typeorm';
import { publishedRoomShape, publishedTableShape, type Plain } from '@pis/domain';
import { instant, int, jsonb, type InstantText } from './columns';

export type PublishedTableJson = Plain<typeof publishedTableShape>;
export type PublishedRoomJson = Plain<typeof publishedRoomShape>;

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
