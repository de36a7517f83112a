import { createHmac } from 'node:crypto';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The `whsec_` prefix of a Standard Webhooks secret; the rest is the key in base64. */
const SECRET_PREFIX = 'whsec_';

/** Decoded keys by secret: an endpoint's secrets sign every one of its attempts. */
const keys = new Map<string, Buffer>();
const MAX_KEYS = 10_000;

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (key === undefined) {
    key = Buffer.from(
      secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
      'base64',
    );
    if (key.length === 0) throw new Error('a webhook secret is not empty');
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/**
 * Standard Webhooks signature headers for one attempt. `messageId` is the outbox event id:
 * the same on every retry and redelivery, so a receiver deduplicates on it. The timestamp
 * is the attempt's (receivers refuse stale ones), so the signature is made at send time.
 * One `v1,<base64>` per secret, space-separated: during a rotation's overlap a receiver
 * that holds either secret verifies.
 *
 * The signature is the scheme's HMAC-SHA256 of `<id>.<timestamp>.<body>` with the secret's
 * key, made by node's crypto (the `standardwebhooks` package computes the same in
 * JavaScript, several times slower; the tests verify with it).
 */
export function signWebhook(messageId: string, body: string, secrets: string[], at: Date): SignedHeaders {
  if (secrets.length === 0) throw new Error('a webhook is signed with at least one secret');
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${messageId}.${timestamp}.`;
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets
      .map(
        (secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).update(body).digest('base64')}`,
      )
      .join(' '),
  };
}
