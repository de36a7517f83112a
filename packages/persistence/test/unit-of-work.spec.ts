import { postgresStore, type Store } from './support/harness';
import { describeUnitOfWorkBehaviour } from './support/unit-of-work.behaviour';

let store: Store;
beforeAll(async () => {
  store = await postgresStore(3);
});
afterAll(() => store.close());

describeUnitOfWorkBehaviour('PostgreSQL', () => store);
