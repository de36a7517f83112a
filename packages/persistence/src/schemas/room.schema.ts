import { EntitySchema } from 'typeorm';
import { float, int, jsonb, primaryUuid, text, uuid } from './columns';

export interface DecorationJson {
  kind: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  text: string | null;
}

export interface RoomRow {
  id: string;
  location_id: string;
  external_id: string | null;
  name: string;
  sort_order: number;
  canvas_width: number;
  canvas_height: number;
  decorations: DecorationJson[];
}

export const roomSchema = new EntitySchema<RoomRow>({
  name: 'room',
  tableName: 'rooms',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    external_id: text(true),
    name: text(),
    sort_order: int(),
    canvas_width: float(),
    canvas_height: float(),
    decorations: jsonb(),
  },
});
