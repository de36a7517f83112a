import type { Connection, ConnectionRepository, GrantResult, Instant } from '@pis/domain';
import { instantToDb } from '../db-instant';
import { connectionMapper } from '../mappers/connection.mapper';
import type { ConnectionRow } from '../schemas/connection.schema';
import type { Sql } from '../db/sql';

const COLUMNS = 'location_id, provider_id, status, granted_at, revoked_at';

/**
 * Grants and revokes, with the fence that makes a connection's span of events exact. The
 * fence is the location's last sequence read `FOR SHARE`: the outbox hands out sequences by
 * updating that row, so the read waits for any transaction still appending (and sees what it
 * committed) and holds off new ones until this commits. An event is therefore committed either
 * before the grant or revoke (a sequence at or below the fence) or after it (above).
 * Concurrent grants and revokes of one pair serialise on the connection row.
 */
export class PgConnectionRepository implements ConnectionRepository {
  constructor(private readonly sql: Sql) {}

  async grant(locationId: string, providerId: string, at: Instant): Promise<GrantResult> {
    const fence = await this.fence(locationId);
    const [created] = await this.sql.rows<ConnectionRow>(
      `INSERT INTO connections (location_id, provider_id, status, granted_at, revoked_at, covered)
       VALUES ($1, $2, 'active', $3, NULL, int8multirange(int8range($4, NULL, '(]')))
       ON CONFLICT (location_id, provider_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [locationId, providerId, instantToDb(at), fence],
    );
    if (created) return { kind: 'created', connection: connectionMapper.toDomain(created) };
    // Locked until commit: a concurrent revoke waits, so what this answers is what commits.
    const stored = await this.sql.first<ConnectionRow>(
      `SELECT ${COLUMNS} FROM connections WHERE location_id = $1 AND provider_id = $2 FOR UPDATE`,
      [locationId, providerId],
    );
    if (stored === null) throw new Error(`connection of ${providerId} to ${locationId} vanished`);
    if (stored.status === 'active')
      return { kind: 'unchanged', connection: connectionMapper.toDomain(stored) };
    const [regranted] = await this.sql.rows<ConnectionRow>(
      `UPDATE connections
          SET status = 'active', granted_at = $3, revoked_at = NULL,
              covered = covered + int8multirange(int8range($4, NULL, '(]'))
        WHERE location_id = $1 AND provider_id = $2
        RETURNING ${COLUMNS}`,
      [locationId, providerId, instantToDb(at), fence],
    );
    return { kind: 'regranted', connection: connectionMapper.toDomain(regranted!) };
  }

  async revoke(locationId: string, providerId: string, at: Instant) {
    const fence = await this.fence(locationId);
    const [revoked] = await this.sql.rows<ConnectionRow>(
      `UPDATE connections
          SET status = 'revoked', revoked_at = $3,
              covered = covered * int8multirange(int8range(NULL, $4, '(]'))
        WHERE location_id = $1 AND provider_id = $2 AND status = 'active'
        RETURNING ${COLUMNS}`,
      [locationId, providerId, instantToDb(at), fence],
    );
    if (revoked) return { kind: 'revoked' as const, connection: connectionMapper.toDomain(revoked) };
    const existing = await this.sql.first<ConnectionRow>(
      `SELECT ${COLUMNS} FROM connections WHERE location_id = $1 AND provider_id = $2`,
      [locationId, providerId],
    );
    return existing === null
      ? { kind: 'none' as const }
      : { kind: 'unchanged' as const, connection: connectionMapper.toDomain(existing) };
  }

  private async fence(locationId: string): Promise<number> {
    const row = await this.sql.first<{ event_sequence: number }>(
      `SELECT event_sequence FROM locations WHERE id = $1 FOR SHARE`,
      [locationId],
    );
    if (row === null) throw new Error(`there is no location ${locationId} to connect`);
    return Number(row.event_sequence);
  }
}
