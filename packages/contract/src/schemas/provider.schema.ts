import { CONNECTION_STATUSES, PROVIDER_KEY_PATTERN } from '@pis/domain';
import { brand as locationBrand, currency, locationResponseSchema } from './backoffice.schema';
import {
  atLeast,
  closedObject,
  int,
  nullableUtcDateTime,
  oneOfValues,
  responseObject,
  text,
  utcDateTime,
} from './primitives';
import { cursorSchema } from './reservation-list.schema';

const brand = () =>
  ({
    ...locationBrand(),
    description: "2-20 of a-z0-9; the provider's keys start <brand>_pk_live_ or <brand>_pk_test_",
  }) as const;

const keyModes = ['live', 'test'] as const;

export const providerCreateRequestSchema = closedObject({ name: text(1, 120), brand: brand() } as const, [
  'name',
  'brand',
]);

export const providerResponseSchema = responseObject({
  id: atLeast(1),
  name: text(1, 120),
  brand: brand(),
  createdAt: utcDateTime(),
} as const);

/** `limit` and `cursor` of the operator's newest-first listings. */
export const pageQuerySchema = closedObject(
  { limit: { ...int(1, 500), default: 100 }, cursor: cursorSchema } as const,
  [],
);

export const providerListResponseSchema = responseObject({
  providers: { type: 'array', items: providerResponseSchema },
  nextCursor: { ...cursorSchema, type: ['string', 'null'] },
} as const);

export const locationListResponseSchema = responseObject({
  locations: { type: 'array', items: locationResponseSchema },
  nextCursor: { ...cursorSchema, type: ['string', 'null'] },
} as const);

export const providerKeyRequestSchema = closedObject(
  {
    mode: {
      ...oneOfValues(keyModes),
      default: 'live',
      description: 'live: reaches the live locations the provider is connected to; test: the sandbox ones',
    },
  } as const,
  [],
);

/** The full key is shown here once and never again. */
export const providerKeyResponseSchema = responseObject({
  id: atLeast(1),
  key: {
    type: 'string',
    pattern: PROVIDER_KEY_PATTERN,
    description: '<brand>_pk_live_... or <brand>_pk_test_... and 40 base62 characters',
  },
  mode: oneOfValues(keyModes),
  createdAt: utcDateTime(),
} as const);

const connectionStatus = () =>
  ({
    ...oneOfValues(CONNECTION_STATUSES),
    description: 'active: the provider may act for the location; revoked: its calls there are refused',
  }) as const;

/** A grant as the operator sees it. */
export const connectionResponseSchema = responseObject({
  locationId: atLeast(1),
  providerId: atLeast(1),
  providerName: {
    ...text(1, 120),
    description: "the provider's name (a location's own provider: the location's)",
  },
  own: {
    type: 'boolean',
    description:
      "the location's own provider (its location keys act for it); its connection cannot be revoked",
  },
  status: connectionStatus(),
  grantedAt: { ...utcDateTime(), description: 'the latest grant' },
  revokedAt: { ...nullableUtcDateTime(), description: 'the latest revoke; null while active' },
} as const);

export const locationConnectionListResponseSchema = responseObject({
  connections: { type: 'array', items: connectionResponseSchema },
} as const);

/** A connection as its provider sees it. */
export const providerConnectionSchema = responseObject({
  locationId: atLeast(1),
  name: text(1, 120),
  currency: currency(),
  sandbox: { type: 'boolean', description: 'a sandbox location: reached with the provider test keys' },
  status: connectionStatus(),
  grantedAt: { ...utcDateTime(), description: 'the latest grant' },
  revokedAt: { ...nullableUtcDateTime(), description: 'the latest revoke; null while active' },
} as const);

export const connectionListQuerySchema = closedObject(
  { limit: { ...int(1, 100), default: 100 }, cursor: cursorSchema } as const,
  [],
);

export const connectionListResponseSchema = responseObject({
  connections: { type: 'array', items: providerConnectionSchema },
  nextCursor: { ...cursorSchema, type: ['string', 'null'] },
} as const);
