import { EntitySchema } from 'typeorm';
import { locationShape } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { bigint, bool, instant, primaryUuid, text } from './columns';

export const locationColumns = rowForm(locationShape);
export type LocationRow = RowOf<typeof locationColumns> & {
  /** The last locationEventSequence handed out; only `Outbox.append` changes it. */
  event_sequence: number;
};

export const locationSchema = new EntitySchema<LocationRow>({
  name: 'location',
  tableName: 'locations',
  columns: {
    id: primaryUuid(),
    name: text(),
    brand: text(),
    currency: { type: 'char', length: 3 },
    sandbox: bool(),
    created_at: instant(),
    event_sequence: bigint(),
  },
});
