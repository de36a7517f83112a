import type { ApiKeyRecord, Location } from '../../access/location';
import { fail, ok } from '../../shared/outcome';
import type { Authenticate, CreateLocation, IssueApiKey, RevokeApiKey } from '../use-case.types';
import { requireLocation } from './require-location';

export const createLocation: CreateLocation = async (deps, { name, brand, currency }) => {
  const location: Location = { id: deps.ids.uuid(), name, brand, currency, createdAt: deps.clock.now() };
  return deps.uow.run(async (tx) => {
    await tx.locations.insert(location);
    return ok(location);
  });
};

/** The full key is returned once; only its SHA-256 and a display prefix are stored. */
export const issueApiKey: IssueApiKey = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  const key = deps.secrets.apiKey(location.value.brand);
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

const KEY_SHAPE = /^[a-z0-9]{2,20}_sk_live_[A-Za-z0-9]{32,}$/;

/** Resolves a bearer key to its location; anything but a live, unrevoked key is `unauthorized`. */
export const authenticate: Authenticate = async (deps, { key }) => {
  if (!KEY_SHAPE.test(key)) return unauthorized();
  const found = await deps.queries.access.findActiveKeyByHash(deps.hasher.hash(key));
  return found ? ok({ locationId: found.locationId, keyId: found.id }) : unauthorized();
};

const unauthorized = () => fail('unauthorized', 'a valid API key is required: Authorization: Bearer <key>');

/** Enough of a key to recognise it in a list, useless to call with. */
export function displayPrefix(key: string): string {
  const live = key.indexOf('_sk_live_');
  return key.slice(0, live + '_sk_live_'.length + 4);
}
