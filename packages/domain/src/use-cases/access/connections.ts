import type { ConnectionCursor, LocationConnection, ProviderConnection } from '../../access/connection';
import type { Location } from '../../access/location';
import { ownProviderId, type NewestFirstCursor } from '../../access/provider';
import { fail, ok } from '../../kernel/outcome';
import { pageOf } from '../page';
import type { Page, UseCase } from '../use-case.types';
import { requireProvider } from './providers';
import { requireLocation } from './require-location';

type Pair = { locationId: string; providerId: string };

/** `created`: the first grant of the pair (201); otherwise it was active already or is active again (200). */
export type GrantConnection = UseCase<Pair, { created: boolean; connection: LocationConnection }>;
export type RevokeConnection = UseCase<Pair, { revoked: boolean }>;
export type ListLocationConnections = UseCase<{ locationId: string }, { connections: LocationConnection[] }>;
export type ListLocations = UseCase<
  { after: NewestFirstCursor | null; limit: number },
  Page<Location, NewestFirstCursor>
>;
export type ListProviderConnections = UseCase<
  { providerId: string; after: ConnectionCursor | null; limit: number },
  Page<ProviderConnection, ConnectionCursor>
>;

/**
 * Grants the provider the location: idempotent, so a retry or a concurrent grant answers the
 * connection as it stands. The location's own provider is connected from the start; granting
 * it again changes nothing.
 */
export const grantConnection: GrantConnection = async (deps, { locationId, providerId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  const own = providerId === ownProviderId(locationId);
  const provider = own ? ok(location.value) : await requireProvider(deps, providerId);
  if (!provider.ok) return provider;
  return deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    const granted = await tx.connections.grant(locationId, providerId, now);
    // Told to the provider's provider-scope endpoints, committed with the grant or not at all.
    if (!own && granted.kind !== 'unchanged') {
      await tx.outbox.appendConnectionEvent(providerId, locationId, {
        type: 'connection.granted',
        occurredAt: now,
        data: { locationName: location.value.name, occurredAt: now.toIso() },
      });
    }
    return ok({
      created: granted.kind === 'created',
      connection: { ...granted.connection, providerName: provider.value.name, own },
    });
  });
};

/**
 * Revokes the provider's connection: from then on its calls for the location are
 * `location_not_granted`, and what it stored there stays. Idempotent, also for a pair never
 * connected. The location's own provider cannot be disconnected (its keys can be revoked).
 */
export const revokeConnection: RevokeConnection = async (deps, { locationId, providerId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  if (providerId === ownProviderId(locationId)) {
    return fail(
      'validation_failed',
      "the location's own provider cannot be disconnected from it; revoke its API keys instead",
    );
  }
  const provider = await requireProvider(deps, providerId);
  if (!provider.ok) return provider;
  return deps.uow.run(async (tx) => {
    const now = deps.clock.now();
    const revoked = await tx.connections.revoke(locationId, providerId, now);
    if (revoked.kind === 'revoked') {
      await tx.outbox.appendConnectionEvent(providerId, locationId, {
        type: 'connection.revoked',
        occurredAt: now,
        data: { locationName: location.value.name, occurredAt: now.toIso() },
      });
    }
    return ok({ revoked: revoked.kind === 'revoked' });
  });
};

export const listLocationConnections: ListLocationConnections = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return ok({ connections: await deps.queries.access.listLocationConnections(locationId) });
};

/** The operator's list of locations, newest first, so no one has to paste an id. */
export const listLocations: ListLocations = async (deps, { after, limit }) => {
  const rows = await deps.queries.access.listLocations(after, limit + 1);
  return ok(pageOf(rows, limit, (last) => ({ createdAt: last.createdAt, id: last.id })));
};

/**
 * What a provider sees of its connections, active and revoked, by grantedAt. A location key's
 * provider (the location's own) has the one.
 */
export const listProviderConnections: ListProviderConnections = async (
  deps,
  { providerId, after, limit },
) => {
  const rows = await deps.queries.access.listProviderConnections(providerId, after, limit + 1);
  return ok(pageOf(rows, limit, (last) => ({ grantedAt: last.grantedAt, locationId: last.locationId })));
};
