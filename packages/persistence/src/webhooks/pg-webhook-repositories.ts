import {
  ownProviderId,
  type EndpointScope,
  type WebhookDeliveryRepository,
  type WebhookEndpoint,
  type WebhookEndpointRepository,
} from '@pis/domain';
import { webhookEndpointMapper, type SecretCipher } from '../mappers/webhook.mapper';
import { webhookEndpointSchema, type WebhookEndpointRow } from '../schemas/webhook-endpoint.schema';
import type { Sql } from '../db/sql';
import { isUuid } from '../adapters/uuid';

/** Secrets are stored encrypted with the cipher and decrypted on read. */
export class PgWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    private readonly sql: Sql,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * Locks the location's singleton endpoint row; when there is none yet, the scope lock of the
   * location's own provider stands in for it, so two first registrations serialise instead of
   * colliding.
   */
  async lock(locationId: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(locationId)) return null;
    const select = () =>
      this.sql.first<WebhookEndpointRow>(
        `SELECT * FROM webhook_endpoints WHERE location_id = $1 AND singleton FOR UPDATE`,
        [locationId],
      );
    let row = await select();
    if (row === null) {
      await this.lockScope({ locationId, providerId: ownProviderId(locationId) });
      row = await select();
    }
    return row === null ? null : webhookEndpointMapper.toDomain(row, this.cipher);
  }

  /**
   * A transaction-scoped advisory lock on the scope, then its count on `webhook_endpoints_owner`
   * (a location scope) or `webhook_endpoints_provider_scope` (the provider's, whose lock key
   * ends in `:provider`, which no location id spells).
   */
  async lockScope(scope: EndpointScope): Promise<number> {
    await this.sql.rows(
      `SELECT pg_advisory_xact_lock(hashtextextended('webhook_endpoints:' || $1 || ':' || $2, 0))`,
      [scope.providerId, scope.locationId ?? 'provider'],
    );
    const counted = await this.sql.first<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE provider_id = $1 AND ${inScope(2, scope)}`,
      [scope.providerId, ...scopeParams(scope)],
    );
    return Number(counted?.n ?? 0);
  }

  async lockById(scope: EndpointScope, id: string): Promise<WebhookEndpoint | null> {
    if (!isUuid(id) || !scopeIsUuids(scope)) return null;
    const row = await this.sql.first<WebhookEndpointRow>(
      `SELECT * FROM webhook_endpoints WHERE id = $1 AND provider_id = $2 AND ${inScope(3, scope)} FOR UPDATE`,
      [id, scope.providerId, ...scopeParams(scope)],
    );
    return row === null ? null : webhookEndpointMapper.toDomain(row, this.cipher);
  }

  /** Saving over an existing endpoint keeps its id, scope and creation time. */
  async save(endpoint: WebhookEndpoint): Promise<void> {
    const { columns, values, params } = this.sql.insertValues(webhookEndpointSchema, [
      webhookEndpointMapper.toPersistence(endpoint, this.cipher),
    ]);
    await this.sql.rows(
      `INSERT INTO webhook_endpoints (${columns}) VALUES ${values}
       ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events,
         description = EXCLUDED.description,
         secrets = EXCLUDED.secrets, updated_at = EXCLUDED.updated_at, disabled_at = EXCLUDED.disabled_at,
         disabled_reason = EXCLUDED.disabled_reason, failing_since = EXCLUDED.failing_since`,
      params,
    );
  }

  async delete(locationId: string): Promise<boolean> {
    if (!isUuid(locationId)) return false;
    const deleted = await this.sql.rows(
      `DELETE FROM webhook_endpoints WHERE location_id = $1 AND singleton RETURNING id`,
      [locationId],
    );
    return deleted.length === 1;
  }

  async deleteById(scope: EndpointScope, id: string): Promise<boolean> {
    if (!isUuid(id) || !scopeIsUuids(scope)) return false;
    const deleted = await this.sql.rows(
      `DELETE FROM webhook_endpoints WHERE id = $1 AND provider_id = $2 AND ${inScope(3, scope)} RETURNING id`,
      [id, scope.providerId, ...scopeParams(scope)],
    );
    return deleted.length === 1;
  }
}

/** The condition on `location_id` that keeps a query within the scope (its location at `$param`, or none). */
export const inScope = (param: number, scope: EndpointScope): string =>
  scope.locationId === null ? 'location_id IS NULL' : `location_id = $${param}`;

/** The parameter `inScope` names, if any. */
export const scopeParams = (scope: EndpointScope): string[] =>
  scope.locationId === null ? [] : [scope.locationId];

export const scopeIsUuids = (scope: EndpointScope): boolean =>
  isUuid(scope.providerId) && (scope.locationId === null || isUuid(scope.locationId));

export class PgWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Pending again, due now, the next generation (so the queue takes a new job for it), its
   * attempt count started over. An attempt of the previous generation still in flight
   * records its attempt only: it no longer matches the generation.
   */
  async requestRedelivery(locationId: string, deliveryId: string): Promise<boolean> {
    if (!isUuid(locationId) || !isUuid(deliveryId)) return false;
    const updated = await this.sql.rows(
      `UPDATE webhook_deliveries
       SET status = 'pending', generation = generation + 1, attempt_count = 0,
           next_attempt_at = t.now, updated_at = t.now
       FROM (SELECT clock_timestamp() AS now) t
       WHERE id = $2 AND location_id = $1 RETURNING id`,
      [locationId, deliveryId],
    );
    return updated.length === 1;
  }
}
