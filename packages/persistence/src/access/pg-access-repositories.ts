import {
  ownProviderId,
  type ApiKeyRecord,
  type ApiKeyRepository,
  type Location,
  type LocationRepository,
  type Provider,
  type ProviderKeyRecord,
  type ProviderRepository,
} from '@pis/domain';
import { instantToDb, nullableInstantToDb } from '../db-instant';
import { apiKeyMapper, locationMapper } from '../mappers/location.mapper';
import { apiKeySchema, providerKeyColumns } from '../schemas/api-key.schema';
import { locationSchema, type LocationRow } from '../schemas/location.schema';
import { providerColumns, providerSchema } from '../schemas/provider.schema';
import type { Sql } from '../db/sql';
import { isUuid } from '../adapters/uuid';
import { insertFloorPlanRow } from '../orders-and-tables/pg-floor-plan-repository';

export class PgLocationRepository implements LocationRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * A location comes with its `floor_plans` row (the lock of its plan commands), its own
   * provider and that provider's connection to it, covering every sequence from the first.
   */
  async insert(location: Location): Promise<void> {
    await this.sql.insert(locationSchema, [locationMapper.toPersistence(location)]);
    await insertFloorPlanRow(this.sql, location.id);
    const own = ownProviderId(location.id);
    const { name, brand, createdAt } = location;
    await this.sql.insert(providerSchema, [
      {
        ...providerColumns.toRow({ id: own, name, brand, createdAt }),
        own_location_id: location.id,
      },
    ]);
    await this.sql.rows(
      `INSERT INTO connections (location_id, provider_id, status, granted_at, revoked_at, covered)
       VALUES ($1, $2, 'active', $3, NULL, int8multirange(int8range(1, NULL)))`,
      [location.id, own, instantToDb(createdAt)],
    );
  }

  async findById(id: string): Promise<Location | null> {
    if (!isUuid(id)) return null;
    const row = await this.sql.first<LocationRow>(`SELECT * FROM locations WHERE id = $1`, [id]);
    return row === null ? null : locationMapper.toDomain(row);
  }
}

/** Location keys: keys of the location's own provider, pinned to the location. */
export class PgApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly sql: Sql) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.sql.insert(apiKeySchema, [
      {
        ...apiKeyMapper.toPersistence(key),
        provider_id: ownProviderId(key.locationId),
        mode: null,
      },
    ]);
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

/** The operator's providers and their keys (which name no location). */
export class PgProviderRepository implements ProviderRepository {
  constructor(private readonly sql: Sql) {}

  async insert(provider: Provider): Promise<void> {
    await this.sql.insert(providerSchema, [
      {
        ...providerColumns.toRow(provider),
        own_location_id: null,
      },
    ]);
  }

  async insertKey(key: ProviderKeyRecord): Promise<void> {
    await this.sql.insert(apiKeySchema, [{ ...providerKeyColumns.toRow(key), location_id: null }]);
  }

  /** Revoking twice keeps the first revocation time; a location key is not a provider's to revoke here. */
  async revokeKey(providerId: string, keyId: string, at: ProviderKeyRecord['revokedAt']): Promise<boolean> {
    if (!isUuid(providerId) || !isUuid(keyId)) return false;
    const revoked = await this.sql.rows(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3)
       WHERE id = $2 AND provider_id = $1 AND location_id IS NULL RETURNING id`,
      [providerId, keyId, nullableInstantToDb(at)],
    );
    return revoked.length === 1;
  }
}
