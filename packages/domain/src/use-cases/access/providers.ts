import { displayPrefix, type KeyMode } from '../../access/api-key';
import type { NewestFirstCursor, Provider, ProviderKeyRecord } from '../../access/provider';
import { fail, ok, type Outcome } from '../../kernel/outcome';
import type { Instant } from '../../kernel/instant';
import type { Deps } from '../deps';
import { pageOf } from '../page';
import type { Page, UseCase } from '../use-case.types';

export type CreateProvider = UseCase<{ name: string; brand: string }, Provider>;
export type GetProvider = UseCase<{ providerId: string }, Provider>;
export type ListProviders = UseCase<
  { after: NewestFirstCursor | null; limit: number },
  Page<Provider, NewestFirstCursor>
>;
export type IssueProviderKey = UseCase<
  { providerId: string; mode: KeyMode },
  { id: string; key: string; mode: KeyMode; createdAt: Instant }
>;
export type RevokeProviderKey = UseCase<{ providerId: string; keyId: string }, { keyId: string }>;

export const createProvider: CreateProvider = async (deps, { name, brand }) => {
  const provider: Provider = { id: deps.ids.uuid(), name, brand, createdAt: deps.clock.now() };
  return deps.uow.run(async (tx) => {
    await tx.providers.insert(provider);
    return ok(provider);
  });
};

/** A provider the operator created; a location's own provider is reached through its location. */
export async function requireProvider(deps: Deps, providerId: string): Promise<Outcome<Provider>> {
  const provider = await deps.queries.access.findProvider(providerId);
  return provider ? ok(provider) : fail('not_found', `there is no provider ${providerId}`);
}

export const getProvider: GetProvider = (deps, { providerId }) => requireProvider(deps, providerId);

export const listProviders: ListProviders = async (deps, { after, limit }) => {
  const rows = await deps.queries.access.listProviders(after, limit + 1);
  return ok(pageOf(rows, limit, (last) => ({ createdAt: last.createdAt, id: last.id })));
};

/**
 * The full key (`<brand>_pk_<mode>_` and 40 base62 characters) is returned once; only its
 * SHA-256 and a display prefix are stored. A live key reaches the provider's live locations,
 * a test key its sandbox ones.
 */
export const issueProviderKey: IssueProviderKey = async (deps, { providerId, mode }) => {
  const provider = await requireProvider(deps, providerId);
  if (!provider.ok) return provider;
  const key = deps.secrets.apiKey(provider.value.brand, mode, 'provider');
  const record: ProviderKeyRecord = {
    id: deps.ids.uuid(),
    providerId,
    hash: deps.hasher.hash(key),
    prefix: displayPrefix(key),
    mode,
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  return deps.uow.run(async (tx) => {
    await tx.providers.insertKey(record);
    return ok({ id: record.id, key, mode, createdAt: record.createdAt });
  });
};

export const revokeProviderKey: RevokeProviderKey = async (deps, { providerId, keyId }) =>
  deps.uow.run(async (tx) =>
    (await tx.providers.revokeKey(providerId, keyId, deps.clock.now()))
      ? ok({ keyId })
      : fail('not_found', `provider ${providerId} has no key ${keyId}`),
  );
