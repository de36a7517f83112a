import { InProcessDelivery } from '../../src';
import { describeDeliveryBehaviour } from '../support/delivery-behaviour';
import { openEmbeddedHarness } from '../support/harness';
import { testLogger } from '../support/test-logger';

// The API's embedded mode: in-process delivery on PGlite, whose one session every query shares.
describeDeliveryBehaviour(
  'in-process delivery on embedded PGlite',
  async (h, settings) => {
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
  },
  openEmbeddedHarness,
);
