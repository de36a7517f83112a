import { EntitySchema } from 'typeorm';
import { tableShape } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { bool, float, int, primaryUuid, text, uuid } from './columns';

/** A table's working-plan columns (`active` is the working plan's flag). */
export const tableColumns = rowForm(tableShape);
export type DiningTableRow = { location_id: string } & RowOf<typeof tableColumns> & {
    /** In the latest published plan; null while the table was never published. */
    published_active: boolean | null;
    /** The open order standing on the table: one column, so never two. */
    open_order_id: string | null;
  };

export const diningTableSchema = new EntitySchema<DiningTableRow>({
  name: 'dining_table',
  tableName: 'dining_tables',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    room_id: uuid(),
    external_id: text(true),
    label: text(),
    shape: text(),
    seat_count: int(),
    min_covers: int(),
    max_covers: int(),
    active: bool(),
    x: float(),
    y: float(),
    rotation: float(),
    published_active: bool(true),
    open_order_id: uuid({ nullable: true }),
  },
});
