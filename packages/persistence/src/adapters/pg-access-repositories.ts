import type { ApiKeyRecord, ApiKeyRepository, Location, LocationRepository } from '@pis/domain';
import { nullableInstantToDb } from '../db-instant';
import { apiKeyMapper, locationMapper } from '../mappers/location.mapper';
import { apiKeySchema } from '../schemas/api-key.schema';
import { floorPlanSchema } from '../schemas/floor-plan.schema';
import { locationSchema, type LocationRow } from '../schemas/location.schema';
import type { Sql } from '../db/sql';
import { isUuid } from './uuid';

export class PgLocationRepository implements LocationRepository {
  constructor(private readonly sql: Sql) {}

  /** A location comes with its `floor_plans` row, the lock of its plan commands. */
  async insert(location: Location): Promise<void> {
    await this.sql.manager.insert(locationSchema, locationMapper.toPersistence(location));
    await this.sql.manager.insert(floorPlanSchema, {
      location_id: location.id,
      published_version: null,
      published_at: null,
    });
  }

  async findById(id: string): Promise<Location | null> {
    if (!isUuid(id)) return null;
    const row = await this.sql.first<LocationRow>(`SELECT * FROM locations WHERE id = $1`, [id]);
    return row === null ? null : locationMapper.toDomain(row);
  }
}

export class PgApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly sql: Sql) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.sql.manager.insert(apiKeySchema, apiKeyMapper.toPersistence(key));
  }

  /** Revoking twice keeps the first revocation time. */
  async revoke(locationId: string, keyId: string, at: ApiKeyRecord['revokedAt']): Promise<boolean> {
    if (!isUuid(locationId) || !isUuid(keyId)) return false;
    const revoked = await this.sql.rows(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3)
       WHERE id = $2 AND location_id = $1 RETURNING id`,
      [locationId, keyId, nullableInstantToDb(at)],
    );
    return revoked.length === 1;
  }
}
