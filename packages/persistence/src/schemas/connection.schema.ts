import { EntitySchema } from 'typeorm';
import { instant, text, uuid, type InstantText } from './columns';

export interface ConnectionRow {
  location_id: string;
  provider_id: string;
  status: string;
  granted_at: InstantText;
  revoked_at: InstantText | null;
  /** The location's event sequences committed while the connection was active (int8multirange text). */
  covered: string;
}

export const connectionSchema = new EntitySchema<ConnectionRow>({
  name: 'connection',
  tableName: 'connections',
  columns: {
    location_id: { ...uuid(), primary: true },
    provider_id: { ...uuid(), primary: true },
    status: text(),
    granted_at: instant(),
    revoked_at: instant(true),
    covered: { type: 'text' },
  },
});
