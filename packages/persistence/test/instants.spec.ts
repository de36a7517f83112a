import { postgresStore, type Store } from './support/harness';
import { describeInstantRoundTrip } from './support/instants.behaviour';

let store: Store;
beforeAll(async () => {
  store = await postgresStore(2);
});
afterAll(() => store.close());

describeInstantRoundTrip('PostgreSQL', () => store);
