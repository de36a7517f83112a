import type { AccessQueries, ApiKeyRecord, Location } from '@pis/domain';
import { locationMapper } from '../mappers/location.mapper';
import type { LocationRow } from '../schemas/location.schema';
import type { Database } from '../db/database';
import { isUuid } from '../adapters/uuid';

export class PgAccessQueries implements AccessQueries {
  constructor(private readonly db: Database) {}

  async findLocation(id: string): Promise<Location | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.read((sql) =>
      sql.first<LocationRow>(`SELECT * FROM locations WHERE id = $1`, [id]),
    );
    return row === null ? null : locationMapper.toDomain(row);
  }

  async findActiveKeyByHash(hash: string): Promise<Pick<ApiKeyRecord, 'id' | 'locationId'> | null> {
    const row = await this.db.read((sql) =>
      sql.first<{ id: string; location_id: string }>(
        `SELECT id, location_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
        [hash],
      ),
    );
    return row === null ? null : { id: row.id, locationId: row.location_id };
  }

  async countLocations(): Promise<number> {
    const row = await this.db.read((sql) =>
      sql.first<{ count: number }>(`SELECT count(*) AS count FROM locations`),
    );
    return row?.count ?? 0;
  }
}
