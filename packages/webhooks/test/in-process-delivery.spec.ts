import { InProcessDelivery } from '../src';
import { describeDeliveryBehaviour } from './support/delivery-behaviour';
import { testLogger } from './support/test-logger';

describeDeliveryBehaviour('in-process delivery', async (h, settings) => {
  const delivery = new InProcessDelivery({
    store: h.persistence.pipeline,
    endpoints: h.persistence.queries.webhooks,
    logger: testLogger,
    settings,
    concurrency: 8,
    pollMs: 100,
  });
  await delivery.start();
  return delivery;
});
