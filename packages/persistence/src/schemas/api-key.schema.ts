import { EntitySchema } from 'typeorm';
import { apiKeyRecordShape } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { instant, primaryUuid, text, uuid } from './columns';

/** `key_hash`: SHA-256 hex of the full key; the key itself is never stored. */
export const apiKeyColumns = rowForm(apiKeyRecordShape, { hash: 'key_hash' });
export type ApiKeyRow = RowOf<typeof apiKeyColumns>;

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
