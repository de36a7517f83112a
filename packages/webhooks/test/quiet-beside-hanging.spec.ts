import { InProcessDelivery } from '../src';
import { queuedDelivery } from './support/queued';
import { describeQuietBesideHanging, SLOTS } from './support/quiet-beside-hanging';
import { dropPrefix, testPrefix } from '@pis/testing/webhooks';
import { testLogger } from './support/test-logger';

jest.setTimeout(120_000);

// The API's deployment without Redis: in-process delivery on PostgreSQL, at the API's defaults.
describeQuietBesideHanging('in-process delivery on PostgreSQL', async (h, settings) => {
  const delivery = new InProcessDelivery({
    store: h.persistence.pipeline,
    endpoints: h.persistence.queries.webhooks,
    logger: testLogger,
    settings,
  });
  await delivery.start();
  return delivery;
});

// The worker deployment: PostgreSQL and Redis, with the in-process deployments' 16 slots (the
// worker's default is 64).
describeQuietBesideHanging('BullMQ worker on PostgreSQL and Redis', async (h, settings) => {
  const prefix = testPrefix('quiet');
  const delivery = queuedDelivery(h, { prefix, settings, concurrency: SLOTS, pollMs: 500 });
  await delivery.start();
  return {
    wake: () => delivery.wake(),
    stop: async () => {
      await delivery.stop();
      await dropPrefix(prefix);
    },
  };
});

// The embedded deployment (PGlite) is checked by `embedded/quiet-beside-hanging.pglite.ts`, in the
// embedded suites' own Jest (`embedded.spec.ts`).
