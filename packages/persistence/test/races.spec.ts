import { postgresStore, type Store } from './support/harness';
import { describeUseCaseRaces } from './support/races.behaviour';

let store: Store;
beforeAll(async () => {
  store = await postgresStore(5);
});
afterAll(() => store.close());

describeUseCaseRaces('PostgreSQL', () => store);
