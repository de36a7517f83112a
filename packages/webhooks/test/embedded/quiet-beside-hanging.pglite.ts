import { InProcessDelivery } from '../../src';
import { openEmbeddedHarness } from '../support/harness';
import { describeQuietBesideHanging } from '../support/quiet-beside-hanging';
import { testLogger } from '../support/test-logger';

jest.setTimeout(120_000);

// The embedded deployment: in-process delivery on PGlite, at the API's defaults. Its one
// session is shared with the hanging endpoint's statements: the failures of its first attempts,
// which end together, are recorded in one statement (decision 0160).
describeQuietBesideHanging(
  'in-process delivery on embedded PGlite',
  async (h, settings) => {
    const delivery = new InProcessDelivery({
      store: h.persistence.pipeline,
      endpoints: h.persistence.queries.webhooks,
      logger: testLogger,
      settings,
    });
    await delivery.start();
    return delivery;
  },
  openEmbeddedHarness,
);
