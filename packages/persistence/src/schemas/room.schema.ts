import { EntitySchema } from 'typeorm';
import { decorationShape, roomShape, type Plain } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { float, int, jsonb, primaryUuid, text, uuid } from './columns';

/** A room's own columns; its tables are rows of their own, its decorations one jsonb array. */
export const roomColumns = rowForm(roomShape.omit('tables'), { order: 'sort_order' });
export type RoomRow = { location_id: string } & RowOf<typeof roomColumns>;
export type DecorationJson = Plain<typeof decorationShape>;

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
