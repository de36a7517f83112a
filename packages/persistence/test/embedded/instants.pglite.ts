import { pgliteStore, type Store } from '../support/harness';
import { describeInstantRoundTrip } from '../support/instants.behaviour';

let store: Store;
beforeAll(async () => {
  store = await pgliteStore();
});
afterAll(() => store.close());

describeInstantRoundTrip('PGlite', () => store);
