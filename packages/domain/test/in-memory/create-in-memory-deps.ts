import {
  transactionalPlainWrites,
  type Clock,
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
import { InMemoryDomainStore } from './in-memory-store';

export interface InMemoryOptions {
  /** `sequential` (default): deterministic UUID-shaped ids; `random`: random UUIDs; or your own. */
  ids?: 'sequential' | 'random' | IdGenerator;
  /** Where the manual clock starts (default `2026-11-21T18:00:00.000Z`). */
  now?: Instant | string;
  /** Refuse webhook URLs that are not https (default: every URL is allowed). */
  requireHttps?: boolean;
  secrets?: SecretFactory;
}

export interface InMemoryDeps<S extends InMemoryDomainStore = InMemoryDomainStore> {
  /** What every use case takes. */
  deps: Deps;
  /** The data behind the adapters, with helpers to look at it (`events`, `orders`, ...). */
  store: S;
  clock: ManualClock;
  ids: IdGenerator;
  urlPolicy: ConfigurableUrlPolicy;
  /** What `POST /webhook-endpoint/test` would have sent, and what it answers. */
  webhookTests: RecordingWebhookTests;
}

/**
 * A complete, isolated set of in-memory adapters: a fresh store per call (`makeStore`: a
 * store with more adapters, such as `@pis/testing`'s with the webhook pipeline's).
 */
export function createInMemoryDeps<S extends InMemoryDomainStore = InMemoryDomainStore>(
  options: InMemoryOptions = {},
  makeStore: (ids: IdGenerator, clock: Clock) => S = (ids, clock) => new InMemoryDomainStore(ids, clock) as S,
): InMemoryDeps<S> {
  const ids =
    options.ids === 'random'
      ? new RandomIds()
      : options.ids === undefined || options.ids === 'sequential'
        ? new SequentialIds()
        : options.ids;
  const clock = new ManualClock(options.now);
  const store = makeStore(ids, clock);
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
