import { EntitySchema } from 'typeorm';
import { instant, int, type InstantText } from './columns';

/** One per location: the lock that serialises plan commands, and the latest published version. */
export interface FloorPlanRow {
  location_id: string;
  published_version: number | null;
  published_at: InstantText | null;
}

export const floorPlanSchema = new EntitySchema<FloorPlanRow>({
  name: 'floor_plan',
  tableName: 'floor_plans',
  columns: {
    location_id: { type: 'uuid', primary: true },
    published_version: int(true),
    published_at: instant(true),
  },
});
