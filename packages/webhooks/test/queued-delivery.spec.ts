import { QueuedDelivery } from '../src';
import { describeDeliveryBehaviour } from './support/delivery-behaviour';
import { dropPrefix, REDIS_URL, testPrefix } from './support/redis';
import { testLogger } from './support/test-logger';

describeDeliveryBehaviour('BullMQ worker', async (h, settings) => {
  const prefix = testPrefix('queued');
  const delivery = new QueuedDelivery({
    db: h.db.dataSource,
    endpoints: h.persistence.queries.webhooks,
    logger: testLogger,
    settings,
    redisUrl: REDIS_URL,
    prefix,
    concurrency: 8,
    databaseUrl: h.db.url,
    pollMs: 100,
  });
  await delivery.start();
  return {
    wake: () => delivery.wake(),
    stop: async () => {
      await delivery.stop();
      await dropPrefix(prefix);
    },
  };
});
