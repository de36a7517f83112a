import { EntitySchema } from 'typeorm';
import { bigint, instant, primaryUuid, text, type InstantText } from './columns';

export interface LocationRow {
  id: string;
  name: string;
  brand: string;
  currency: string;
  created_at: InstantText;
  /** The last locationEventSequence handed out; only `Outbox.append` changes it. */
  event_sequence: number;
}

export const locationSchema = new EntitySchema<LocationRow>({
  name: 'location',
  tableName: 'locations',
  columns: {
    id: primaryUuid(),
    name: text(),
    brand: text(),
    currency: { type: 'char', length: 3 },
    created_at: instant(),
    event_sequence: bigint(),
  },
});
