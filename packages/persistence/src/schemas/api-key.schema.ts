import { EntitySchema } from 'typeorm';
import { apiKeyRecordShape, providerKeyRecordShape } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { instant, primaryUuid, text, uuid } from './columns';

/**
 * Both kinds of key live in `api_keys`, so one index probe on `key_hash` (SHA-256 hex of the
 * full key; the key itself is never stored) authenticates either. A location key has its
 * location and acts for the location's own provider; a provider key has no location and
 * carries its mode.
 */
export const apiKeyColumns = rowForm(apiKeyRecordShape, { hash: 'key_hash' });
export const providerKeyColumns = rowForm(providerKeyRecordShape, { hash: 'key_hash' });
export type ApiKeyRow = RowOf<typeof apiKeyColumns>;
export type ProviderKeyRow = RowOf<typeof providerKeyColumns>;

/** A row of `api_keys` of either kind. */
export type KeyRow = Omit<ApiKeyRow, 'location_id'> & {
  location_id: string | null;
  provider_id: string;
  mode: string | null;
};

export const apiKeySchema = new EntitySchema<KeyRow>({
  name: 'api_key',
  tableName: 'api_keys',
  columns: {
    id: primaryUuid(),
    location_id: uuid({ nullable: true }),
    provider_id: uuid(),
    key_hash: { type: 'char', length: 64 },
    prefix: text(),
    mode: text(true),
    created_at: instant(),
    revoked_at: instant(true),
  },
});
