import { EntitySchema } from 'typeorm';
import { instant, primaryUuid, text, uuid, type InstantText } from './columns';

export interface ApiKeyRow {
  id: string;
  location_id: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  prefix: string;
  created_at: InstantText;
  revoked_at: InstantText | null;
}

export const apiKeySchema = new EntitySchema<ApiKeyRow>({
  name: 'api_key',
  tableName: 'api_keys',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    key_hash: { type: 'char', length: 64 },
    prefix: text(),
    created_at: instant(),
    revoked_at: instant(true),
  },
});
