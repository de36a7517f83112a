import { displayPrefix } from '../../access/api-key';
import { keyModeOf, type ApiKeyRecord, type Location } from '../../access/location';
import { fail, ok } from '../../kernel/outcome';
import type { Instant } from '../../kernel/instant';
import type { UseCase } from '../use-case.types';
import { authenticateKey } from './credentials';
import { requireLocation } from './require-location';

/** Any failure is `unauthorized`; `sandbox` says the key is a test key of a sandbox location. */
export type Authenticate = UseCase<{ key: string }, { locationId: string; keyId: string; sandbox: boolean }>;
/** `sandbox` (default false) makes a sandbox location, whose keys are test keys. */
export type CreateLocation = UseCase<
  { name: string; brand: string; currency: string; sandbox?: boolean },
  Location
>;
export type IssueApiKey = UseCase<{ locationId: string }, { id: string; key: string; createdAt: Instant }>;
export type RevokeApiKey = UseCase<{ locationId: string; keyId: string }, { keyId: string }>;

export const createLocation: CreateLocation = async (deps, { name, brand, currency, sandbox = false }) => {
  const location: Location = {
    id: deps.ids.uuid(),
    name,
    brand,
    currency,
    sandbox,
    createdAt: deps.clock.now(),
  };
  return deps.uow.run(async (tx) => {
    await tx.locations.insert(location);
    return ok(location);
  });
};

/**
 * The full key is returned once; only its SHA-256 and a display prefix are stored. A
 * sandbox location's keys are test keys (`<brand>_sk_test_...`), any other's live keys.
 */
export const issueApiKey: IssueApiKey = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  const key = deps.secrets.apiKey(location.value.brand, keyModeOf(location.value));
  const record: ApiKeyRecord = {
    id: deps.ids.uuid(),
    locationId,
    hash: deps.hasher.hash(key),
    prefix: displayPrefix(key),
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  return deps.uow.run(async (tx) => {
    await tx.apiKeys.insert(record);
    return ok({ id: record.id, key, createdAt: record.createdAt });
  });
};

export const revokeApiKey: RevokeApiKey = async (deps, { locationId, keyId }) =>
  deps.uow.run(async (tx) =>
    (await tx.apiKeys.revoke(locationId, keyId, deps.clock.now()))
      ? ok({ keyId })
      : fail('not_found', `location ${locationId} has no key ${keyId}`),
  );

/**
 * Resolves a location key to its location; anything else (a provider key included) is
 * `unauthorized`. Sandbox and live never mix: a test key authenticates only a sandbox
 * location and a live key only a live one (see `authenticateKey`).
 */
export const authenticate: Authenticate = async (deps, { key }) => {
  const credential = await authenticateKey(deps, { key });
  if (!credential.ok) return credential;
  const { pinnedLocationId, keyId, mode } = credential.value;
  if (pinnedLocationId === null) {
    return fail('unauthorized', 'a valid API key is required: Authorization: Bearer <key>');
  }
  return ok({ locationId: pinnedLocationId, keyId, sandbox: mode === 'test' });
};
