import { createPersistence } from '@pis/persistence';
import type { TestDatabase } from '@pis/persistence/test-support';
import type { Logger } from '@pis/runtime';
import type { Resolver } from '@pis/webhooks';
import type { ApiOverrides } from '../../src/container';
import { Client } from './client';
import { BACKOFFICE_TOKEN, startTestApi, startTestDatabase, type TestApi } from './test-api';
import { B, P, planImport, uniqueId, type Json, type PlanOptions } from './wire';

/**
 * DNS without a network: names under `example.test` resolve to the addresses below
 * (a public one, a private one, a cloud metadata one); anything else does not resolve.
 */
export const TEST_HOSTS: Record<string, string[]> = {
  'hooks.example.test': ['93.184.215.14'],
  'intranet.example.test': ['10.1.2.3'],
  'metadata.example.test': ['169.254.169.254'],
  localhost: ['127.0.0.1'],
};

/** The relay reads no secrets; a cipher that is never used. */
const NO_SECRETS = {
  encrypt: (): string => {
    throw new Error('the relay does not store secrets');
  },
  decrypt: (): string => {
    throw new Error('the relay does not read secrets');
  },
};

export const testResolver: Resolver = async (hostname) => {
  const addresses = TEST_HOSTS[hostname];
  if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
  return addresses;
};

/** Production's webhook URL rules: https only, public receivers only (the test runtimes allow both). */
export const WITHOUT_WEBHOOK_FLAGS: Record<string, string> = {
  WEBHOOK_ALLOW_INSECURE_URLS: 'false',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
};

export interface TableMapping {
  externalTableId: string;
  tableId: string;
  label: string;
}

/** A location made through the backoffice API, with its own provider key. */
export interface TestLocation {
  id: string;
  name: string;
  key: string;
  keyId: string;
  currency: string;
  /** The provider API with this location's key. */
  api: Client;
  /** Table ids in mapping order (empty when no plan was imported). */
  tables: string[];
  mapping: TableMapping[];
  /** `/api/backoffice/v1/locations/<id><path>` */
  ops(path?: string): string;
}

export interface LocationOptions extends PlanOptions {
  /** `none`: no rooms; `draft`: imported, never published; `published` (default): imported and published. */
  plan?: 'none' | 'draft' | 'published';
  currency?: string;
  /** A sandbox location: its key is a test key. */
  sandbox?: boolean;
}

/**
 * One database and one API per test file; locations are made fresh per test through the
 * API itself (backoffice: create, issue a key, publish; provider: import), so a test sees
 * only its own data.
 */
export class Harness {
  readonly operator: Client;
  readonly anonymous: Client;

  private constructor(
    readonly db: TestDatabase,
    readonly api: TestApi,
    private readonly ownsDb: boolean,
  ) {
    this.operator = new Client(api.server, BACKOFFICE_TOKEN);
    this.anonymous = new Client(api.server, null);
  }

  static async start(env: Record<string, string> = {}, overrides: ApiOverrides = {}): Promise<Harness> {
    const db = await startTestDatabase();
    try {
      return new Harness(db, await startTestApi(db.url, env, { resolver: testResolver, ...overrides }), true);
    } catch (error) {
      await db.drop();
      throw error;
    }
  }

  /** A second API (other settings) on the database of `other`. */
  static async beside(other: Harness, env: Record<string, string>, logger?: Logger): Promise<Harness> {
    return new Harness(
      other.db,
      await startTestApi(other.db.url, env, { resolver: testResolver }, logger),
      false,
    );
  }

  get runtime() {
    return this.api.runtime;
  }

  /** Fans every committed outbox event out to deliveries now, as the relay would (for a harness whose delivery is off). */
  async relayOutbox(): Promise<void> {
    const { relay } = createPersistence(this.db.database, { cipher: NO_SECRETS }).pipeline;
    while ((await relay.relayBatch(500)).events > 0);
  }

  client(token: string | null): Client {
    return new Client(this.api.server, token);
  }

  async stop(): Promise<void> {
    await this.api.close();
    if (this.ownsDb) await this.db.drop();
  }

  async location(options: LocationOptions = {}): Promise<TestLocation> {
    const { plan = 'published', currency, sandbox } = options;
    const created = await this.operator
      .post(`${B}/locations`)
      .send({
        name: `Location ${uniqueId('l')}`,
        brand: 'test',
        ...(currency ? { currency } : {}),
        ...(sandbox ? { sandbox } : {}),
      })
      .expect(201);
    const id = created.body.id as string;
    const ops = (path = '') => `${B}/locations/${id}${path}`;
    const issued = await this.operator.post(ops('/api-keys')).expect(201);
    const api = this.client(issued.body.key);
    let mapping: TableMapping[] = [];
    if (plan !== 'none') {
      const imported = await api.post(`${P}/floorplan/import`).send(planImport(options)).expect(201);
      mapping = imported.body.mapping;
      if (plan === 'published') await this.operator.post(ops('/floorplan/publish')).expect(200);
    }
    return {
      id,
      name: created.body.name,
      key: issued.body.key,
      keyId: issued.body.id,
      currency: created.body.currency,
      api,
      tables: mapping.map((m) => m.tableId),
      mapping,
      ops,
    };
  }

  /** A walk-in order on `tableIds` through the till (backoffice). */
  async walkIn(location: TestLocation, tableIds: string[], covers = 2): Promise<Json> {
    const res = await this.operator.post(location.ops('/orders')).send({ tableIds, covers }).expect(201);
    return res.body;
  }

  async openOrders(location: TestLocation): Promise<Json[]> {
    const res = await this.operator.get(location.ops('/orders?status=open')).expect(200);
    return res.body.orders;
  }
}
