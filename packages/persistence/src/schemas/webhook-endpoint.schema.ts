import { EntitySchema } from 'typeorm';
import { bool, instant, jsonb, primaryUuid, text, textArray, uuid, type InstantText } from './columns';

/** `secret` is the cipher's output, never the secret in clear. */
export interface StoredSecretJson {
  secret: string;
  expiresAt: string | null;
}

export interface WebhookEndpointRow {
  id: string;
  /** null: a provider-scope endpoint (every location its provider is connected to). */
  location_id: string | null;
  /** The provider the endpoint belongs to (a location's own provider has the location's id). */
  provider_id: string;
  description: string | null;
  /** The one `PUT /webhook-endpoint` manages; at most one per location. */
  singleton: boolean;
  url: string;
  events: string[];
  /** Current secret first, then rotated-out ones still inside their overlap window. */
  secrets: StoredSecretJson[];
  created_at: InstantText;
  updated_at: InstantText;
  disabled_at: InstantText | null;
  disabled_reason: string | null;
  failing_since: InstantText | null;
}

export const webhookEndpointSchema = new EntitySchema<WebhookEndpointRow>({
  name: 'webhook_endpoint',
  tableName: 'webhook_endpoints',
  columns: {
    id: primaryUuid(),
    location_id: uuid({ nullable: true }),
    provider_id: uuid(),
    description: text(true),
    singleton: bool(),
    url: text(),
    events: textArray(),
    secrets: jsonb(),
    created_at: instant(),
    updated_at: instant(),
    disabled_at: instant(true),
    disabled_reason: text(true),
    failing_since: instant(true),
  },
});
