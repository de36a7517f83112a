import type { ApiKeyRecord, Location } from '@pis/domain';
import { apiKeyColumns, type ApiKeyRow } from '../schemas/api-key.schema';
import { locationColumns, type LocationRow } from '../schemas/location.schema';

export const locationMapper = {
  toDomain: (row: LocationRow): Location => locationColumns.fromRow(row),
  /** A new location has handed out no event sequence yet. */
  toPersistence: (location: Location): LocationRow => ({
    ...locationColumns.toRow(location),
    event_sequence: 0,
  }),
};

export const apiKeyMapper = {
  toDomain: (row: ApiKeyRow): ApiKeyRecord => apiKeyColumns.fromRow(row),
  toPersistence: (key: ApiKeyRecord): ApiKeyRow => apiKeyColumns.toRow(key),
};
