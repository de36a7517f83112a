import type {
  AccessQueries,
  ActiveKey,
  ConnectionCursor,
  Location,
  LocationConnection,
  NewestFirstCursor,
  Provider,
  ProviderConnection,
} from '@pis/domain';
import { instantToDb } from '../db-instant';
import { connectionMapper } from '../mappers/connection.mapper';
import { locationMapper } from '../mappers/location.mapper';
import type { ConnectionRow } from '../schemas/connection.schema';
import type { LocationRow } from '../schemas/location.schema';
import { providerColumns, type ProviderRow } from '../schemas/provider.schema';
import type { Database } from '../db/database';
import { isUuid } from '../adapters/uuid';

type ConnectionOnly = Omit<ConnectionRow, 'covered'>;

export class PgAccessQueries implements AccessQueries {
  constructor(private readonly db: Database) {}

  async findLocation(id: string): Promise<Location | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.read((sql) =>
      sql.first<LocationRow>(`SELECT * FROM locations WHERE id = $1`, [id]),
    );
    return row === null ? null : locationMapper.toDomain(row);
  }

  async findActiveKeyByHash(hash: string): Promise<ActiveKey | null> {
    const row = await this.db.read((sql) =>
      sql.first<{ id: string; provider_id: string; location_id: string | null }>(
        `SELECT id, provider_id, location_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
        [hash],
      ),
    );
    return row === null ? null : { id: row.id, providerId: row.provider_id, locationId: row.location_id };
  }

  async countLocations(): Promise<number> {
    const row = await this.db.read((sql) =>
      sql.first<{ count: number }>(`SELECT count(*) AS count FROM locations`),
    );
    return row?.count ?? 0;
  }

  async isConnected(providerId: string, locationId: string): Promise<boolean> {
    if (!isUuid(providerId) || !isUuid(locationId)) return false;
    const rows = await this.db.prepared(
      'pis_connection_active',
      `SELECT 1 FROM connections WHERE location_id = $1 AND provider_id = $2 AND status = 'active'`,
      [locationId, providerId],
      'read',
    );
    return rows.length === 1;
  }

  async findProvider(id: string): Promise<Provider | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.read((sql) =>
      sql.first<ProviderRow>(`SELECT * FROM providers WHERE id = $1 AND own_location_id IS NULL`, [id]),
    );
    return row === null ? null : providerColumns.fromRow(row);
  }

  /** Walks `providers_newest`. */
  async listProviders(after: NewestFirstCursor | null, limit: number): Promise<Provider[]> {
    if (after !== null && !isUuid(after.id)) return [];
    const rows = await this.db.read((sql) =>
      sql.rows<ProviderRow>(
        `SELECT * FROM providers WHERE own_location_id IS NULL ${before(after)}
          ORDER BY created_at DESC, id DESC LIMIT $1`,
        [limit, ...position(after)],
      ),
    );
    return rows.map((row) => providerColumns.fromRow(row));
  }

  /** Walks `locations_newest`. */
  async listLocations(after: NewestFirstCursor | null, limit: number): Promise<Location[]> {
    if (after !== null && !isUuid(after.id)) return [];
    const rows = await this.db.read((sql) =>
      sql.rows<LocationRow>(
        `SELECT * FROM locations WHERE true ${before(after)} ORDER BY created_at DESC, id DESC LIMIT $1`,
        [limit, ...position(after)],
      ),
    );
    return rows.map(locationMapper.toDomain);
  }

  async listLocationConnections(locationId: string): Promise<LocationConnection[]> {
    if (!isUuid(locationId)) return [];
    const rows = await this.db.read((sql) =>
      sql.rows<ConnectionOnly & { provider_name: string; own: boolean }>(
        `SELECT c.location_id, c.provider_id, c.status, c.granted_at, c.revoked_at,
                p.name AS provider_name, p.own_location_id IS NOT NULL AS own
           FROM connections c JOIN providers p ON p.id = c.provider_id
          WHERE c.location_id = $1
          ORDER BY c.granted_at, c.provider_id`,
        [locationId],
      ),
    );
    return rows.map((row) => ({
      ...connectionMapper.toDomain(row),
      providerName: row.provider_name,
      own: row.own,
    }));
  }

  /** One range scan of `connections_provider (provider_id, granted_at, location_id)`, a key lookup per location. */
  async listProviderConnections(
    providerId: string,
    after: ConnectionCursor | null,
    limit: number,
  ): Promise<ProviderConnection[]> {
    if (!isUuid(providerId) || (after !== null && !isUuid(after.locationId))) return [];
    const keyset = after === null ? '' : 'AND (c.granted_at, c.location_id) > ($3::timestamptz, $4::uuid)';
    const rows = await this.db.prepared<
      ConnectionOnly & { name: string; currency: string; sandbox: boolean }
    >(
      after === null ? 'pis_provider_connections' : 'pis_provider_connections_after',
      `SELECT c.location_id, c.provider_id, c.status, c.granted_at, c.revoked_at, l.name, l.currency, l.sandbox
         FROM connections c JOIN locations l ON l.id = c.location_id
        WHERE c.provider_id = $1 ${keyset}
        ORDER BY c.granted_at, c.location_id LIMIT $2`,
      after === null
        ? [providerId, limit]
        : [providerId, limit, instantToDb(after.grantedAt), after.locationId],
      'read',
    );
    return rows.map((row) => ({
      ...connectionMapper.toDomain(row),
      name: row.name,
      currency: row.currency,
      sandbox: row.sandbox,
    }));
  }
}

/** The keyset condition of a newest-first listing (`$2`, `$3` the cursor's instant and id). */
const before = (after: NewestFirstCursor | null) =>
  after === null ? '' : 'AND (created_at, id) < ($2::timestamptz, $3::uuid)';

const position = (after: NewestFirstCursor | null) =>
  after === null ? [] : [instantToDb(after.createdAt), after.id];
