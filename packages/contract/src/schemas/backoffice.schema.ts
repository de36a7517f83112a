import { atLeast, closedObject, utcDateTime, responseObject, text } from './primitives';

const brand = () => ({ type: 'string', pattern: '^[a-z0-9]{2,20}$' }) as const;
const currency = () => ({ type: 'string', pattern: '^[A-Z]{3}$' }) as const;

export const locationCreateRequestSchema = closedObject(
  { name: text(1, 120), brand: brand(), currency: { ...currency(), default: 'EUR' } } as const,
  ['name', 'brand'],
);

export const locationResponseSchema = responseObject({
  id: atLeast(1),
  name: text(1, 120),
  brand: brand(),
  currency: currency(),
} as const);

/** The full key is shown here once and never again. */
export const apiKeyResponseSchema = responseObject({
  id: atLeast(1),
  key: { type: 'string', pattern: '^[a-z0-9]{2,20}_sk_live_[A-Za-z0-9]{32,}$' },
  createdAt: utcDateTime(),
} as const);
