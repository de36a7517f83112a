import {
  transactionalPlainWrites,
  type Deps,
  type IdGenerator,
  type Instant,
  type SecretFactory,
} from '../../src';
import { Sha256KeyHasher, RandomSecrets } from '../system/crypto-adapters';
import { RandomIds, SequentialIds } from '../system/ids';
import { ManualClock } from '../system/manual-clock';
import { ConfigurableUrlPolicy } from '../system/url-policy';
import { RecordingWebhookTests } from '../system/recording-webhook-tests';
import type { InspectableAdapterSet } from '../../../testing/src/contracts/adapter-set';
import { InMemoryStore } from './in-memory-store';

export interface InMemoryOptions {
  /** `sequential` (default): deterministic UUID-shaped ids; `random`: random UUIDs; or your own. */
  ids?: 'sequential' | 'random' | IdGenerator;
  /** Where the manual clock starts (default `2026-11-21T18:00:00.000Z`). */
  now?: Instant | string;
  /** Refuse webhook URLs that are not https (default: every URL is allowed). */
  requireHttps?: boolean;
  secrets?: SecretFactory;
}

export interface InMemoryDeps {
  /** What every use case takes. */
  deps: Deps;
  /** The data behind the adapters, with helpers to look at it (`events`, `orders`, ...). */
  store: InMemoryStore;
  clock: ManualClock;
  ids: IdGenerator;
  urlPolicy: ConfigurableUrlPolicy;
  /** What `POST /webhook-endpoint/test` would have sent, and what it answers. */
  webhookTests: RecordingWebhookTests;
}

/** A complete, isolated set of in-memory adapters: a fresh store per call. */
export function createInMemoryDeps(options: InMemoryOptions = {}): InMemoryDeps {
  const ids =
    options.ids === 'random'
      ? new RandomIds()
      : options.ids === undefined || options.ids === 'sequential'
        ? new SequentialIds()
        : options.ids;
  const clock = new ManualClock(options.now);
  const store = new InMemoryStore(ids, clock);
  const urlPolicy = new ConfigurableUrlPolicy({ requireHttps: options.requireHttps ?? false });
  const webhookTests = new RecordingWebhookTests();
  const deps: Deps = {
    uow: store.uow,
    plainWrites: transactionalPlainWrites(store.uow),
    queries: store.queries,
    clock,
    ids,
    hasher: new Sha256KeyHasher(),
    secrets: options.secrets ?? new RandomSecrets(),
    urlPolicy,
    webhookTests,
  };
  return { deps, store, clock, ids, urlPolicy, webhookTests };
}

/** The in-memory adapters as a contract suite takes them. */
export async function inMemoryAdapterSet(): Promise<InspectableAdapterSet> {
  const store = new InMemoryStore(new RandomIds());
  return {
    uow: store.uow,
    queries: store.queries,
    events: async (locationId) => store.events(locationId),
    seedDelivery: (delivery) => store.addDelivery(delivery),
    pipeline: store.pipeline,
    backlog: store.backlog,
    retention: store.retention,
  };
}
