import { pgliteStore, type Store } from '../support/harness';
import { describeUseCaseRaces } from '../support/races.behaviour';

let store: Store;
beforeAll(async () => {
  store = await pgliteStore();
});
afterAll(() => store.close());

describeUseCaseRaces('PGlite', () => store);
