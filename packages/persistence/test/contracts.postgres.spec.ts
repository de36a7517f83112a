import {
  describeAllPortContracts,
  describeIdempotencyStoreContract,
  describeInspectionContracts,
} from '@pis/testing';
import { inspectable, postgresStore } from './support/harness';

// Each suite gets its own database (its `make` runs once, in beforeAll). Its sessions run in
// a TimeZone that is not UTC, as they may behind a transaction pooler, where no startup
// option can pin it: no adapter may depend on it (every other PostgreSQL suite runs in UTC).
const store = async () => inspectable(await postgresStore(5, { TimeZone: 'America/St_Johns' }));
describeAllPortContracts('PostgreSQL', store);
describeInspectionContracts('PostgreSQL', store);
describeIdempotencyStoreContract('PostgreSQL', async () => {
  const postgres = await postgresStore(5, { TimeZone: 'America/St_Johns' });
  return { store: postgres.idempotency, close: () => postgres.close() };
});
