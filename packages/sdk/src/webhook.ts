import { Webhook } from 'standardwebhooks';
import type { AnyWebhookEvent, WebhookEvent } from './schemas';

// The entry point of @pis/webhook-verifier (the verifier alone): the event types come with it.
export type {
  ConnectionWebhookEvent,
  ProviderScopeWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
} from './schemas';
export type { webhooks } from './generated/openapi';

/** The signature, the timestamp (older or newer than 5 minutes) or the headers did not check out. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    // Keeps `instanceof` working when a consumer's toolchain compiles classes down to ES5.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'WebhookVerificationError';
  }
}

/** Node's `req.headers` or a fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Checks a delivery's Standard Webhooks signature with the endpoint's `whsec_...` secret and
 * returns its body, typed by event type: switch on `event.type`. `body` must be the raw
 * request body, exactly as received. Throws `WebhookVerificationError` when it is forged,
 * altered or stale. Deduplicate on the `webhook-id` header and order on
 * `data.locationEventSequence`; an event type newer than this SDK reaches your default branch.
 * A provider-scope endpoint's receiver asks for `verifyWebhook<ProviderScopeWebhookEvent>`: it
 * also gets `connection.granted` / `connection.revoked`, which carry no sequence.
 */
export function verifyWebhook<Event extends AnyWebhookEvent = WebhookEvent>(
  secret: string,
  body: string | Uint8Array,
  headers: WebhookHeaders,
): Event {
  const signed: Record<string, string> = {};
  for (const name of SIGNED_HEADERS) {
    const value = headerValue(headers, name);
    if (value === undefined) throw new WebhookVerificationError(`missing the ${name} header`);
    signed[name] = value;
  }
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(payload, signed) as Event;
  } catch (error) {
    throw new WebhookVerificationError(error instanceof Error ? error.message : String(error));
  }
}
