import { keyShapeOf, type KeyMode } from '../../access/api-key';
import { keyModeOf } from '../../access/location';
import { ownProviderId } from '../../access/provider';
import { fail, ok, type Failure } from '../../kernel/outcome';
import type { UseCase } from '../use-case.types';

/** What a key presented on the provider API stands for once it is recognised. */
export interface Credential {
  keyId: string;
  /** The provider the key acts for; a location key's is the location's own provider. */
  providerId: string;
  /** A location key's location; null for a provider key, which names one per request. */
  pinnedLocationId: string | null;
  mode: KeyMode;
}

/** The location a request acts on, once the credential may act there. */
export interface ActingLocation {
  locationId: string;
  /** A sandbox location: reached by test keys only, the only kind that reaches the till simulator. */
  sandbox: boolean;
  /** Whether the credential's provider is the location's own (the request came with a location key). */
  own: boolean;
}

/** Any failure is `unauthorized`. */
export type AuthenticateKey = UseCase<{ key: string }, Credential>;

/**
 * `requested` is the `Location-Id` the request sent (undefined: none). Failures, in order:
 * `location_required` (a provider key without one), `validation_failed` (not a UUID),
 * `location_not_granted` (no active connection, an unknown location, a key mode that does not
 * fit the location, or a location key naming another location).
 */
export type ResolveLocation = UseCase<
  { credential: Credential; requested: string | undefined },
  ActingLocation
>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resolves a bearer key of either kind; anything but an unrevoked key of the kind its text
 * says is `unauthorized`. A location key must also fit its location's mode (a test key
 * authenticates only a sandbox location, a live key only a live one), whatever the stored
 * hash says; a provider key's mode is checked against each location it names.
 */
export const authenticateKey: AuthenticateKey = async (deps, { key }) => {
  const shape = keyShapeOf(key);
  if (shape === null) return unauthorized();
  const found = await deps.queries.access.findActiveKeyByHash(deps.hasher.hash(key));
  if (!found || (found.locationId === null) !== (shape.kind === 'provider')) return unauthorized();
  if (found.locationId !== null) {
    const location = await deps.queries.access.findLocation(found.locationId);
    if (!location || keyModeOf(location) !== shape.mode) return unauthorized();
  }
  return ok({
    keyId: found.id,
    providerId: found.providerId,
    pinnedLocationId: found.locationId,
    mode: shape.mode,
  });
};

/**
 * The location a request acts on (see `ResolveLocation`). A location key ignores a
 * `Location-Id` equal to its own location; a provider key needs one, and an active connection
 * to it in the key's mode.
 */
export const resolveLocation: ResolveLocation = async (deps, { credential, requested }) => {
  const named = requested?.trim() ?? '';
  if (named !== '' && !UUID.test(named)) {
    return fail('validation_failed', 'the Location-Id header must be a location id (a UUID)');
  }
  const locationId = named.toLowerCase();
  if (credential.pinnedLocationId !== null) {
    if (locationId !== '' && locationId !== credential.pinnedLocationId) return notGranted(locationId);
    const location = await deps.queries.access.findLocation(credential.pinnedLocationId);
    if (!location) return unauthorized();
    return ok({ locationId: location.id, sandbox: location.sandbox, own: true });
  }
  if (locationId === '') {
    return fail(
      'location_required',
      'a provider key names the location of each request: send the header Location-Id: <location id>',
    );
  }
  const [connected, location] = await Promise.all([
    deps.queries.access.isConnected(credential.providerId, locationId),
    deps.queries.access.findLocation(locationId),
  ]);
  if (!connected || !location || keyModeOf(location) !== credential.mode) return notGranted(locationId);
  return ok({
    locationId,
    sandbox: location.sandbox,
    own: ownProviderId(locationId) === credential.providerId,
  });
};

/**
 * The scope of a webhook-endpoint route: with a provider key and no `Location-Id`, the
 * provider as a whole (`providerScope`); otherwise the location `resolveLocation` decides,
 * with its refusals. Every other location route keeps `location_required`.
 */
export type ResolveEndpointScope = UseCase<
  { credential: Credential; requested: string | undefined },
  ActingLocation | { providerScope: true }
>;

export const resolveEndpointScope: ResolveEndpointScope = async (deps, { credential, requested }) =>
  credential.pinnedLocationId === null && (requested?.trim() ?? '') === ''
    ? ok({ providerScope: true as const })
    : resolveLocation(deps, { credential, requested });

const unauthorized = (): Failure =>
  fail('unauthorized', 'a valid API key is required: Authorization: Bearer <key>');

const notGranted = (locationId: string): Failure =>
  fail(
    'location_not_granted',
    `this key may not act for location ${locationId}: its provider has no active connection there in this key's mode`,
  );
