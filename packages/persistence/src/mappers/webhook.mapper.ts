import type { DeliveryStatus, WebhookDelivery, WebhookEndpoint, WebhookEventType } from '@pis/domain';
import { instantFromDb, instantToDb, nullableInstantFromDb, nullableInstantToDb } from '../db-instant';
import type { WebhookAttemptRow } from '../schemas/webhook-attempt.schema';
import type { WebhookDeliveryRow } from '../schemas/webhook-delivery.schema';
import type { WebhookEndpointRow } from '../schemas/webhook-endpoint.schema';

/** Reversible protection of webhook secrets at rest (e.g. `AesGcmSecretCipher` of `@pis/runtime`). */
export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

export const webhookEndpointMapper = {
  toDomain(row: WebhookEndpointRow, cipher: SecretCipher): WebhookEndpoint {
    return {
      id: row.id,
      locationId: row.location_id,
      providerId: row.provider_id,
      description: row.description,
      singleton: row.singleton,
      url: row.url,
      events: [...row.events] as WebhookEventType[],
      secrets: row.secrets.map((s) => ({
        secret: cipher.decrypt(s.secret),
        expiresAt: nullableInstantFromDb(s.expiresAt),
      })),
      createdAt: instantFromDb(row.created_at),
      updatedAt: instantFromDb(row.updated_at),
      disabledAt: nullableInstantFromDb(row.disabled_at),
      disabledReason: row.disabled_reason,
      failingSince: nullableInstantFromDb(row.failing_since),
    };
  },
  toPersistence(endpoint: WebhookEndpoint, cipher: SecretCipher): WebhookEndpointRow {
    return {
      id: endpoint.id,
      location_id: endpoint.locationId,
      provider_id: endpoint.providerId,
      description: endpoint.description,
      singleton: endpoint.singleton,
      url: endpoint.url,
      events: [...endpoint.events],
      secrets: endpoint.secrets.map((s) => ({
        secret: cipher.encrypt(s.secret),
        expiresAt: nullableInstantToDb(s.expiresAt),
      })),
      created_at: instantToDb(endpoint.createdAt),
      updated_at: instantToDb(endpoint.updatedAt),
      disabled_at: nullableInstantToDb(endpoint.disabledAt),
      disabled_reason: endpoint.disabledReason,
      failing_since: nullableInstantToDb(endpoint.failingSince),
    };
  },
};

/** The attempt rows of one delivery, oldest first. */
export function webhookDeliveryToDomain(
  row: WebhookDeliveryRow,
  attempts: WebhookAttemptRow[],
): WebhookDelivery {
  return {
    id: row.id,
    locationId: row.location_id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type as WebhookEventType,
    sequence: row.sequence === null ? null : Number(row.sequence),
    status: row.status as DeliveryStatus,
    attempts: attempts.map((a) => ({
      attemptedAt: instantFromDb(a.attempted_at),
      responseStatus: a.response_status,
      durationMs: a.duration_ms,
      error: a.error,
    })),
    nextAttemptAt: nullableInstantFromDb(row.next_attempt_at),
    createdAt: instantFromDb(row.created_at),
    updatedAt: instantFromDb(row.updated_at),
  };
}
