import { API_KEY_PATTERN, BRAND_PATTERN } from '@pis/domain';
import { atLeast, closedObject, utcDateTime, responseObject, text } from './primitives';

export const brand = () => ({ type: 'string', pattern: `^${BRAND_PATTERN}$` }) as const;
export const currency = () => ({ type: 'string', pattern: '^[A-Z]{3}$' }) as const;

const sandbox = {
  type: 'boolean',
  description:
    'a sandbox location: its keys are test keys (<brand>_sk_test_...), which reach only it and its till simulator',
} as const;

export const locationCreateRequestSchema = closedObject(
  {
    name: text(1, 120),
    brand: brand(),
    currency: { ...currency(), default: 'EUR' },
    sandbox: { ...sandbox, default: false },
  } as const,
  ['name', 'brand'],
);

export const locationResponseSchema = responseObject({
  id: atLeast(1),
  name: text(1, 120),
  brand: brand(),
  currency: currency(),
  sandbox,
} as const);

/** The full key is shown here once and never again. */
export const apiKeyResponseSchema = responseObject({
  id: atLeast(1),
  key: {
    type: 'string',
    pattern: API_KEY_PATTERN,
    description: '<brand>_sk_live_... for a live location, <brand>_sk_test_... for a sandbox one',
  },
  createdAt: utcDateTime(),
} as const);
