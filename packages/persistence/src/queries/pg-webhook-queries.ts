import type {
  DeliveryListQuery,
  EndpointScope,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookQueries,
} from '@pis/domain';
import { instantToDb } from '../db-instant';
import { webhookDeliveryToDomain, webhookEndpointMapper, type SecretCipher } from '../mappers/webhook.mapper';
import type { WebhookAttemptRow } from '../schemas/webhook-attempt.schema';
import type { WebhookDeliveryRow } from '../schemas/webhook-delivery.schema';
import type { WebhookEndpointRow } from '../schemas/webhook-endpoint.schema';
import type { Database } from '../db/database';
import { isUuid } from '../adapters/uuid';
import { inScope, scopeIsUuids, scopeParams } from '../webhooks/pg-webhook-repositories';

export class PgWebhookQueries implements WebhookQueries {
  constructor(
    private readonly db: Database,
    private readonly cipher: SecretCipher,
  ) {}

  async findEndpoint(locationId: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(locationId)) return null;
    const row = await this.db.read((sql) =>
      sql.first<WebhookEndpointRow>(`SELECT * FROM webhook_endpoints WHERE location_id = $1 AND singleton`, [
        locationId,
      ]),
    );
    return row === null ? null : webhookEndpointMapper.toDomain(row, this.cipher);
  }

  async findEndpointById(id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id)) return null;
    const row = await this.db.read((sql) =>
      sql.first<WebhookEndpointRow>(`SELECT * FROM webhook_endpoints WHERE id = $1`, [id]),
    );
    return row === null ? null : webhookEndpointMapper.toDomain(row, this.cipher);
  }

  /** Oldest first on `webhook_endpoints_owner` (or `webhook_endpoints_provider_scope`). */
  async listEndpoints(scope: EndpointScope): Promise<WebhookEndpoint[]> {
    if (!scopeIsUuids(scope)) return [];
    const rows = await this.db.read(
      (sql) =>
        sql.rows<WebhookEndpointRow>(
          `SELECT * FROM webhook_endpoints WHERE provider_id = $1 AND ${inScope(2, scope)} ORDER BY created_at, id`,
          [scope.providerId, ...scopeParams(scope)],
        ),
      scope.locationId === null ? undefined : { location: scope.locationId },
    );
    return rows.map((row) => webhookEndpointMapper.toDomain(row, this.cipher));
  }

  /**
   * Newest first on `webhook_deliveries_newest (location_id, created_at DESC, id DESC)`, the
   * keyset strictly after the cursor; then the page's attempts, oldest first, in one statement.
   */
  async listDeliveries(q: DeliveryListQuery): Promise<WebhookDelivery[]> {
    if (q.locationId === null) return this.listProviderScopeDeliveries({ ...q, locationId: null });
    if (!isUuid(q.locationId) || q.limit <= 0) return [];
    if (q.after !== null && !isUuid(q.after.id)) return [];
    const params: unknown[] = [q.locationId, q.limit];
    const where = ['location_id = $1'];
    if (q.endpointId != null) {
      if (!isUuid(q.endpointId)) return [];
      params.push(q.endpointId);
      where.push(`endpoint_id = $${params.length}`);
    }
    if (q.providerId != null) {
      if (!isUuid(q.providerId)) return [];
      params.push(q.providerId);
      where.push(
        `endpoint_id IN (SELECT id FROM webhook_endpoints WHERE location_id = $1 AND provider_id = $${params.length})`,
      );
    }
    if (q.status !== null) {
      params.push(q.status);
      where.push(`status = $${params.length}`);
    }
    if (q.after !== null) {
      params.push(instantToDb(q.after.createdAt), q.after.id);
      where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    return this.db.snapshot(
      async (sql) =>
        this.withAttempts(
          sql,
          await sql.rows<WebhookDeliveryRow>(
            `SELECT * FROM webhook_deliveries WHERE ${where.join(' AND ')}
           ORDER BY created_at DESC, id DESC LIMIT $2`,
            params,
          ),
        ),
      { location: q.locationId },
    );
  }

  /**
   * The deliveries to the provider's provider-scope endpoints (or the one named), at every
   * location: newest first, one keyset walk of `webhook_deliveries_endpoint_newest` per
   * endpoint (at most ten), each at most a page long, merged.
   */
  private async listProviderScopeDeliveries(
    q: DeliveryListQuery & { locationId: null },
  ): Promise<WebhookDelivery[]> {
    if (q.limit <= 0 || !isUuid(q.providerId ?? '')) return [];
    if (q.after !== null && !isUuid(q.after.id)) return [];
    if (q.endpointId != null && !isUuid(q.endpointId)) return [];
    const params: unknown[] = [q.providerId, q.limit, q.endpointId ?? null, q.status];
    const where = ['d.endpoint_id = ep.id', '($4::text IS NULL OR d.status = $4)'];
    if (q.after !== null) {
      params.push(instantToDb(q.after.createdAt), q.after.id);
      where.push(`(d.created_at, d.id) < ($5::timestamptz, $6::uuid)`);
    }
    return this.db.snapshot(async (sql) =>
      this.withAttempts(
        sql,
        await sql.rows<WebhookDeliveryRow>(
          `SELECT d.* FROM webhook_endpoints ep
             CROSS JOIN LATERAL (SELECT * FROM webhook_deliveries d WHERE ${where.join(' AND ')}
                                  ORDER BY d.created_at DESC, d.id DESC LIMIT $2) d
            WHERE ep.provider_id = $1 AND ep.location_id IS NULL AND ($3::uuid IS NULL OR ep.id = $3)
            ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
          params,
        ),
      ),
    );
  }

  /** The page's attempts, oldest first, in one statement. */
  private async withAttempts(
    sql: Parameters<Parameters<Database['snapshot']>[0]>[0],
    deliveries: WebhookDeliveryRow[],
  ): Promise<WebhookDelivery[]> {
    if (deliveries.length === 0) return [];
    const attempts = await sql.rows<WebhookAttemptRow>(
      `SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY attempted_at, id`,
      [deliveries.map((d) => d.id)],
    );
    const attemptsOf = new Map<string, WebhookAttemptRow[]>(deliveries.map((d) => [d.id, []]));
    for (const attempt of attempts) attemptsOf.get(attempt.delivery_id)?.push(attempt);
    return deliveries.map((d) => webhookDeliveryToDomain(d, attemptsOf.get(d.id) ?? []));
  }
}
