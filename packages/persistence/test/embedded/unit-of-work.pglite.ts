import { pgliteStore, type Store } from '../support/harness';
import { describeUnitOfWorkBehaviour } from '../support/unit-of-work.behaviour';

let store: Store;
beforeAll(async () => {
  store = await pgliteStore();
});
afterAll(() => store.close());

describeUnitOfWorkBehaviour('PGlite', () => store);
