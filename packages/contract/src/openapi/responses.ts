import type { ErrorStatus } from './operation-spec';
import { replayable } from './idempotency';
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
  XRateLimitLimit: {
    description:
      'requests the key may make per two-second window (twice RATE_LIMIT_RPS: that many a second sustained, bursts of twice that); absent when rate limiting is off',
    schema: { type: 'integer', minimum: 1 },
  },
  XRateLimitRemaining: {
    description: 'requests the key may still make in the current window, this one counted',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description:
      'present, and `true`, when this is the kept answer of an earlier request with the same Idempotency-Key, replayed: nothing ran again',
    schema: { type: 'string', const: 'true' },
  },
  XRateLimitReset: {
    description: 'whole seconds until the current window ends and the count starts over (not a date)',
    schema: { type: 'integer', minimum: 0 },
  },
} as const;

const headerRef = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });

/**
 * Headers a response of this status carries. An answer to an authenticated provider
 * request (`rateLimited`) reports the key's rate limit; one to a request that takes an
 * `Idempotency-Key` (`idempotent`) may be a replay.
 */
export function responseHeaders(
  status: number,
  rateLimited = false,
  idempotent = false,
): Record<string, unknown> {
  return {
    'X-Request-Id': headerRef('XRequestId'),
    ...(idempotent && replayable(status) ? { 'Idempotent-Replayed': headerRef('IdempotentReplayed') } : {}),
    ...(status === 401 ? { 'WWW-Authenticate': headerRef('WWWAuthenticate') } : {}),
    ...(status === 429 ? { 'Retry-After': headerRef('RetryAfter') } : {}),
    ...(rateLimited && status !== 401
      ? {
          'X-RateLimit-Limit': headerRef('XRateLimitLimit'),
          'X-RateLimit-Remaining': headerRef('XRateLimitRemaining'),
          'X-RateLimit-Reset': headerRef('XRateLimitReset'),
        }
      : {}),
  };
}

/** An error response: the envelope, with the codes this endpoint gives at this status. */
export function errorResponse(
  status: ErrorStatus,
  description: string,
  rateLimited = false,
  idempotent = false,
  examples?: Record<string, unknown>,
) {
  return {
    description,
    headers: responseHeaders(status, rateLimited, idempotent),
    content: {
      'application/json': { schema: schemaRef('ErrorEnvelope'), ...(examples ? { examples } : {}) },
    },
  };
}

const webhookHeader = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required: true,
  description: `Standard Webhooks: ${description}`,
  schema,
});

/** The Standard Webhooks headers of every delivery, as parameters of each webhook. */
export const webhookHeaderParameters = [
  webhookHeader('webhook-id', 'the id of the message, the same on every retry; deduplicate on it', {
    type: 'string',
  }),
  webhookHeader('webhook-timestamp', 'Unix seconds when this attempt was signed', {
    type: 'string',
    pattern: '^[0-9]+$',
  }),
  webhookHeader(
    'webhook-signature',
    'space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, ' +
      'one per live secret (two during a secret rotation)',
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  ),
];
