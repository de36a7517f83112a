import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Test } from 'supertest';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from '../support/api-process';
import { BACKOFFICE_TOKEN, deploymentEnv, START_TIMEOUT_MS } from '../support/deployment';
import { Receiver, verified, type Received } from '../support/receiver';
import { B, P, planImport, reservation, uniqueId, type Json } from '../support/wire';

jest.setTimeout(240_000);

/**
 * docs/reference/providers.md, black box in each deployment an operator can run: the embedded
 * default (PGlite, no DATABASE_URL), PostgreSQL with in-process delivery, and PostgreSQL with
 * Redis and a separate worker. Two booking systems at one venue with provider keys and
 * `Location-Id`, each with its own endpoint there beside the venue's own: every event reaches
 * every endpoint with the same webhook-id and sequence, signed over the body its reader may
 * see (another provider's reservation id reads null), with `data.locationId`; a replayed
 * `Idempotency-Key` changes nothing; a revoked provider is refused.
 */
interface Deployment {
  api: ApiProcess;
  stop(): Promise<void>;
}

const deployments: [string, (receiver: Receiver) => Promise<Deployment>][] = [
  [
    'the embedded default (PGlite, in-process delivery)',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pis-partners-'));
      const env = deploymentEnv('unused');
      delete (env as Record<string, string | undefined>)['DATABASE_URL'];
      const api = await ApiProcess.start({ ...env, DATA_DIR: dataDir }, START_TIMEOUT_MS);
      // No DATABASE_URL: the API keeps its database in DATA_DIR.
      expect(readdirSync(dataDir).length).toBeGreaterThan(0);
      return {
        api,
        stop: async () => {
          await api.stop('SIGTERM');
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'PostgreSQL with in-process delivery',
    async () => {
      const db: TestDatabase = await createTestDatabase({ poolSize: 2 });
      const api = await ApiProcess.start(deploymentEnv(db.url), START_TIMEOUT_MS);
      return {
        api,
        stop: async () => {
          await api.stop('SIGKILL');
          await db.drop();
        },
      };
    },
  ],
  [
    'PostgreSQL, Redis and a separate worker',
    async () => {
      const db: TestDatabase = await createTestDatabase({ poolSize: 2 });
      const prefix = testPrefix('partners');
      const env = deploymentEnv(db.url, { REDIS_URL, WEBHOOK_QUEUE_PREFIX: prefix });
      const api = await ApiProcess.start(env, START_TIMEOUT_MS);
      const worker = await WorkerProcess.start(env, START_TIMEOUT_MS);
      return {
        api,
        stop: async () => {
          await worker.stop('SIGKILL');
          await api.stop('SIGKILL');
          await db.drop();
          await dropPrefix(prefix);
        },
      };
    },
  ],
];

describe.each(deployments)('Providers at one venue on %s', (_name, deploy) => {
  let receiver: Receiver;
  let deployment: Deployment;
  beforeAll(async () => {
    receiver = await Receiver.start();
    deployment = await deploy(receiver);
  });
  afterAll(async () => {
    await deployment?.stop();
    await receiver?.close();
  });

  const call = (
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    token: string,
    locationId?: string,
  ): Test => {
    const test = request(deployment.api.baseUrl)
      [method](path)
      .set('Authorization', `Bearer ${token}`)
      .timeout(10_000);
    return locationId ? test.set('Location-Id', locationId) : test;
  };
  const operator = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    call(method, path, BACKOFFICE_TOKEN);

  async function providerWithKey(name: string): Promise<{ id: string; key: string }> {
    const created = await operator('post', `${B}/providers`).send({ name, brand: 'booking' }).expect(201);
    const issued = await operator('post', `${B}/providers/${created.body.id}/api-keys`).send({}).expect(201);
    return { id: created.body.id as string, key: issued.body.key as string };
  }

  it('When two booking systems seat guests at one venue, then each endpoint gets every event signed over what its reader may see, a replayed key changes nothing, and a revoke refuses', async () => {
    const venue = await operator('post', `${B}/locations`)
      .send({ name: 'Two systems', brand: 'test' })
      .expect(201);
    const venueId = venue.body.id as string;
    const ops = (path: string) => `${B}/locations/${venueId}${path}`;
    const ownKey = (await operator('post', ops('/api-keys')).expect(201)).body.key as string;
    const imported = await call('post', `${P}/floorplan/import`, ownKey)
      .send(planImport({ tables: 3 }))
      .expect(201);
    const [t1, t2] = (imported.body.mapping as { tableId: string }[]).map((m) => m.tableId);
    await operator('post', ops('/floorplan/publish')).expect(200);

    const alpha = await providerWithKey(`Alpha ${uniqueId('p')}`);
    const beta = await providerWithKey(`Beta ${uniqueId('p')}`);
    for (const provider of [alpha, beta]) {
      expect([200, 201]).toContain((await operator('put', ops(`/connections/${provider.id}`))).status);
    }

    const paths = {
      own: `/partners/${venueId}/own`,
      alpha: `/partners/${venueId}/alpha`,
      beta: `/partners/${venueId}/beta`,
    };
    const own = await call('put', `${P}/webhook-endpoint`, ownKey)
      .send({ url: `${receiver.origin}${paths.own}` })
      .expect(200);
    const alphaHook = await call('post', `${P}/webhook-endpoints`, alpha.key, venueId)
      .send({ url: `${receiver.origin}${paths.alpha}` })
      .expect(201);
    const betaHook = await call('post', `${P}/webhook-endpoints`, beta.key, venueId)
      .send({ url: `${receiver.origin}${paths.beta}`, eventTypes: ['table.occupied'] })
      .expect(201);
    expect(alphaHook.body).toMatchObject({ scope: 'location', locationId: venueId });
    const secrets = {
      own: own.body.secret as string,
      alpha: alphaHook.body.secret as string,
      beta: betaHook.body.secret as string,
    };

    // Alpha seats a guest, sending the same Idempotency-Key twice.
    const externalId = uniqueId('alpha');
    const body = reservation({ externalId, status: 'seated', tableIds: [t1] });
    const first = await call('post', `${P}/reservations`, alpha.key, venueId)
      .set('Idempotency-Key', `seat-${externalId}`)
      .send(body)
      .expect(201);
    const replayed = await call('post', `${P}/reservations`, alpha.key, venueId)
      .set('Idempotency-Key', `seat-${externalId}`)
      .send(body)
      .expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);

    // Beta cannot seat on Alpha's table, and is not told whose guest holds it.
    const refused = await call('post', `${P}/reservations`, beta.key, venueId)
      .send(reservation({ status: 'seated', tableIds: [t1] }))
      .expect(409);
    expect(refused.body.error.code).toBe('table_occupied');
    expect(refused.body.error.occupiedBy.reservationExternalId).toBeNull();

    // Beta seats its own guest at another table.
    const betaId = uniqueId('beta');
    await call('post', `${P}/reservations`, beta.key, venueId)
      .send(reservation({ externalId: betaId, status: 'seated', tableIds: [t2] }))
      .expect(201);

    const occupied = (path: string, secret: string, tableId: string) =>
      receiver.until(
        () =>
          receiver
            .at(path)
            .map((r: Received) => ({ request: r, body: verified(r, secret) as Json }))
            .find(
              (e) => e.body['type'] === 'table.occupied' && (e.body['data'] as Json)['tableId'] === tableId,
            ),
        60_000,
        `table.occupied of ${tableId} at ${path}`,
      );
    for (const [tableId, owner] of [
      [t1!, externalId],
      [t2!, betaId],
    ] as const) {
      const seen = {
        own: await occupied(paths.own, secrets.own, tableId),
        alpha: await occupied(paths.alpha, secrets.alpha, tableId),
        beta: await occupied(paths.beta, secrets.beta, tableId),
      };
      const ids = Object.values(seen).map((s) => s.request.headers['webhook-id']);
      expect(new Set(ids).size).toBe(1);
      expect(new Set(Object.values(seen).map((s) => s.body['sequence'])).size).toBe(1);
      const readers = {
        own: null,
        alpha: tableId === t1 ? owner : null,
        beta: tableId === t2 ? owner : null,
      };
      for (const reader of ['own', 'alpha', 'beta'] as const) {
        const data = seen[reader].body['data'] as Json;
        expect(data['locationId']).toBe(venueId);
        expect(data['reservationExternalId']).toBe(readers[reader]);
      }
    }
    // One reservation from the replayed POST; Beta's endpoint got only the type it asked for.
    const listed = await call(
      'get',
      `${P}/reservations?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z`,
      alpha.key,
      venueId,
    ).expect(200);
    expect((listed.body.reservations as Json[]).filter((r) => r['externalId'] === externalId)).toHaveLength(
      1,
    );
    expect(
      receiver.at(paths.beta).every((r) => (verified(r, secrets.beta) as Json)['type'] === 'table.occupied'),
    ).toBe(true);

    // Revoked, Beta's key no longer acts for the venue.
    await operator('delete', ops(`/connections/${beta.id}`)).expect(204);
    const revoked = await call('get', `${P}/tables/state`, beta.key, venueId).expect(403);
    expect(revoked.body.error.code).toBe('location_not_granted');
  });
});
