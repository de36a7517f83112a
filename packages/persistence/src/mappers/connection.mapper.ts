import type { Connection, ConnectionStatus } from '@pis/domain';
import { instantFromDb, nullableInstantFromDb } from '../db-instant';
import type { ConnectionRow } from '../schemas/connection.schema';

export const connectionMapper = {
  toDomain: (row: Omit<ConnectionRow, 'covered'>): Connection => ({
    locationId: row.location_id,
    providerId: row.provider_id,
    status: row.status as ConnectionStatus,
    grantedAt: instantFromDb(row.granted_at),
    revokedAt: nullableInstantFromDb(row.revoked_at),
  }),
};
