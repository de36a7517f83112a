import {
  providerShape,
  type ConnectionCursor,
  type Instant,
  type KeyMode,
  type Location,
  type LocationConnection,
  type NewestFirstCursor,
  type Page,
  type Provider,
  type ProviderConnection,
} from '@pis/domain';
import { valid, type Checked } from '../validation/checked';
import type {
  ConnectionListQuery,
  ConnectionListResponse,
  ConnectionResponse,
  LocationConnectionListResponse,
  LocationListResponse,
  PageQuery,
  ProviderConnectionResponse,
  ProviderCreateRequest,
  ProviderKeyRequest,
  ProviderKeyResponse,
  ProviderListResponse,
  ProviderResponse,
} from '../wire-types';
import { toLocationResponse } from './backoffice.mapper';
import {
  decodeConnectionCursor,
  decodeLocationCursor,
  decodeProviderCursor,
  encodeConnectionCursor,
  encodeLocationCursor,
  encodeProviderCursor,
} from './cursor';
import { WIRE_INSTANTS, toNullableIso } from './instant';
import { DEFAULT_LIST_LIMIT } from './list-query.mapper';

export const toProviderCommand = (body: ProviderCreateRequest) => ({ name: body.name, brand: body.brand });

export const toProviderResponse = (p: Provider): ProviderResponse => providerShape.encode(p, WIRE_INSTANTS);

/** The body is optional: no body (or no `mode`) issues a live key. */
export const toProviderKeyMode = (body: ProviderKeyRequest | undefined): KeyMode => body?.mode ?? 'live';

export const toProviderKeyResponse = (issued: {
  id: string;
  key: string;
  mode: KeyMode;
  createdAt: Instant;
}): ProviderKeyResponse => ({
  id: issued.id,
  key: issued.key,
  mode: issued.mode,
  createdAt: issued.createdAt.toIso(),
});

/** A page of a newest-first listing: a malformed cursor is refused here. */
function pageCommand(
  query: PageQuery,
  decode: (text: string) => Checked<NewestFirstCursor>,
): Checked<{ limit: number; after: NewestFirstCursor | null }> {
  const after = query.cursor === undefined ? valid(null) : decode(query.cursor);
  if (!after.ok) return after;
  return valid({ limit: query.limit ?? DEFAULT_LIST_LIMIT, after: after.value });
}

export const toProviderListCommand = (query: PageQuery) => pageCommand(query, decodeProviderCursor);
export const toLocationListCommand = (query: PageQuery) => pageCommand(query, decodeLocationCursor);

export const toProviderListResponse = (page: Page<Provider, NewestFirstCursor>): ProviderListResponse => ({
  providers: page.items.map(toProviderResponse),
  nextCursor: page.next === null ? null : encodeProviderCursor(page.next),
});

export const toLocationListResponse = (page: Page<Location, NewestFirstCursor>): LocationListResponse => ({
  locations: page.items.map(toLocationResponse),
  nextCursor: page.next === null ? null : encodeLocationCursor(page.next),
});

export const toConnectionResponse = (c: LocationConnection): ConnectionResponse => ({
  locationId: c.locationId,
  providerId: c.providerId,
  providerName: c.providerName,
  own: c.own,
  status: c.status,
  grantedAt: c.grantedAt.toIso(),
  revokedAt: toNullableIso(c.revokedAt),
});

export const toLocationConnectionListResponse = (list: {
  connections: LocationConnection[];
}): LocationConnectionListResponse => ({ connections: list.connections.map(toConnectionResponse) });

/** The provider's pages hold 100 connections unless `limit` asks for fewer. */
export function toConnectionListCommand(
  query: ConnectionListQuery,
): Checked<{ limit: number; after: ConnectionCursor | null }> {
  const after = query.cursor === undefined ? valid(null) : decodeConnectionCursor(query.cursor);
  if (!after.ok) return after;
  return valid({ limit: query.limit ?? DEFAULT_LIST_LIMIT, after: after.value });
}

export const toProviderConnectionResponse = (c: ProviderConnection): ProviderConnectionResponse => ({
  locationId: c.locationId,
  name: c.name,
  currency: c.currency,
  sandbox: c.sandbox,
  status: c.status,
  grantedAt: c.grantedAt.toIso(),
  revokedAt: toNullableIso(c.revokedAt),
});

export const toConnectionListResponse = (
  page: Page<ProviderConnection, ConnectionCursor>,
): ConnectionListResponse => ({
  connections: page.items.map(toProviderConnectionResponse),
  nextCursor: page.next === null ? null : encodeConnectionCursor(page.next),
});
