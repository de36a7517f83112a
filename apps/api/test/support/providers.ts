import type { Test } from 'supertest';
import type { Client } from './client';
import type { Harness, TestLocation } from './harness';
import { B, uniqueId } from './wire';

/** A provider made through the backoffice API, with one key of each mode issued on demand. */
export interface TestProvider {
  id: string;
  name: string;
  /** A live provider key (`<brand>_pk_live_...`). */
  key: string;
  keyId: string;
  /** The provider API with this provider's live key, acting for `location` (a Location-Id on every call). */
  at(location: { id: string } | string): LocatedClient;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A client whose every request names the location with `Location-Id`. */
export type LocatedClient = Record<Method, (path: string) => Test>;

export function located(api: Client, locationId: string): LocatedClient {
  const call = (method: Method) => (path: string) => api[method](path).set('Location-Id', locationId);
  return {
    get: call('get'),
    post: call('post'),
    put: call('put'),
    patch: call('patch'),
    delete: call('delete'),
  };
}

export async function createProvider(h: Harness, mode: 'live' | 'test' = 'live'): Promise<TestProvider> {
  const name = `Provider ${uniqueId('p')}`;
  const created = await h.operator.post(`${B}/providers`).send({ name, brand: 'booking' }).expect(201);
  const id = created.body.id as string;
  const issued = await h.operator.post(`${B}/providers/${id}/api-keys`).send({ mode }).expect(201);
  const api = h.client(issued.body.key);
  return {
    id,
    name,
    key: issued.body.key,
    keyId: issued.body.id,
    at: (location) => located(api, typeof location === 'string' ? location : location.id),
  };
}

export const connectionPath = (location: TestLocation | string, providerId: string): string =>
  `${B}/locations/${typeof location === 'string' ? location : location.id}/connections/${providerId}`;

export async function grant(h: Harness, location: TestLocation | string, provider: { id: string }) {
  const res = await h.operator.put(connectionPath(location, provider.id));
  if (res.status !== 201 && res.status !== 200) throw new Error(`grant answered ${res.status}`);
  return res;
}

export async function revoke(h: Harness, location: TestLocation | string, provider: { id: string }) {
  await h.operator.delete(connectionPath(location, provider.id)).expect(204);
}
