import { Webhook } from 'standardwebhooks';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks signature headers for one attempt. `messageId` is the outbox event id:
 * the same on every retry and redelivery, so a receiver deduplicates on it. The timestamp
 * is the attempt's (receivers refuse stale ones), so the signature is made at send time.
 * One `v1,<base64>` per secret, space-separated: during a rotation's overlap a receiver
 * that holds either secret verifies.
 */
export function signWebhook(messageId: string, body: string, secrets: string[], at: Date): SignedHeaders {
  if (secrets.length === 0) throw new Error('a webhook is signed with at least one secret');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
