import type { ErrorStatus } from './operation-spec';
import { schemaRef } from './schema-refs';

export const headers = {
  XRequestId: {
    description: 'the id of this request, also in the service logs; quote it when reporting a problem',
    schema: { type: 'string' },
  },
  WWWAuthenticate: {
    description: 'always `Bearer`',
    required: true,
    schema: { type: 'string', const: 'Bearer' },
  },
  RetryAfter: {
    description: 'seconds to wait before retrying',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  WebhookId: {
    description: 'Standard Webhooks: the id of the message, the same on every retry; deduplicate on it',
    required: true,
    schema: { type: 'string' },
  },
  WebhookTimestamp: {
    description: 'Standard Webhooks: Unix seconds when this attempt was signed',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookSignature: {
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, ' +
      'one per live secret (two during a secret rotation)',
    required: true,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
} as const;

const headerRef = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });

/** Headers a response of this status carries. */
export function responseHeaders(status: number): Record<string, unknown> {
  return {
    'X-Request-Id': headerRef('XRequestId'),
    ...(status === 401 ? { 'WWW-Authenticate': headerRef('WWWAuthenticate') } : {}),
    ...(status === 429 ? { 'Retry-After': headerRef('RetryAfter') } : {}),
  };
}

/** An error response: the envelope, with the codes this endpoint gives at this status. */
export function errorResponse(status: ErrorStatus, description: string) {
  return {
    description,
    headers: responseHeaders(status),
    content: { 'application/json': { schema: schemaRef('ErrorEnvelope') } },
  };
}

export const webhookHeaderParameters = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: headers.WebhookId.schema,
    description: headers.WebhookId.description,
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: headers.WebhookTimestamp.schema,
    description: headers.WebhookTimestamp.description,
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: headers.WebhookSignature.schema,
    description: headers.WebhookSignature.description,
  },
];
