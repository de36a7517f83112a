import type { ApiKeyRecord, Location } from '@pis/domain';
import { instantFromDb, instantToDb, nullableInstantFromDb, nullableInstantToDb } from '../db-instant';
import type { ApiKeyRow } from '../schemas/api-key.schema';
import type { LocationRow } from '../schemas/location.schema';

export const locationMapper = {
  toDomain(row: LocationRow): Location {
    return {
      id: row.id,
      name: row.name,
      brand: row.brand,
      currency: row.currency,
      createdAt: instantFromDb(row.created_at),
    };
  },
  /** A new location has handed out no event sequence yet. */
  toPersistence(location: Location): LocationRow {
    return {
      id: location.id,
      name: location.name,
      brand: location.brand,
      currency: location.currency,
      created_at: instantToDb(location.createdAt),
      event_sequence: 0,
    };
  },
};

export const apiKeyMapper = {
  toDomain(row: ApiKeyRow): ApiKeyRecord {
    return {
      id: row.id,
      locationId: row.location_id,
      hash: row.key_hash,
      prefix: row.prefix,
      createdAt: instantFromDb(row.created_at),
      revokedAt: nullableInstantFromDb(row.revoked_at),
    };
  },
  toPersistence(key: ApiKeyRecord): ApiKeyRow {
    return {
      id: key.id,
      location_id: key.locationId,
      key_hash: key.hash,
      prefix: key.prefix,
      created_at: instantToDb(key.createdAt),
      revoked_at: nullableInstantToDb(key.revokedAt),
    };
  },
};
