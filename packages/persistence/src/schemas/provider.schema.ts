import { EntitySchema } from 'typeorm';
import { providerShape } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { instant, primaryUuid, text, uuid } from './columns';

export const providerColumns = rowForm(providerShape);
export type ProviderRow = RowOf<typeof providerColumns> & {
  /** Set on a location's own provider (whose id is the location's); null for the operator's. */
  own_location_id: string | null;
};

export const providerSchema = new EntitySchema<ProviderRow>({
  name: 'provider',
  tableName: 'providers',
  columns: {
    id: primaryUuid(),
    name: text(),
    brand: text(),
    own_location_id: uuid({ nullable: true }),
    created_at: instant(),
  },
});
