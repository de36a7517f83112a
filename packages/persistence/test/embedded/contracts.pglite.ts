import {
  describeAccessContract,
  describeFloorPlanRepositoryContract,
  describeIdempotencyStoreContract,
  describeInspectionContracts,
  describeOrderRepositoryContract,
  describeOutboxContract,
  describePlainWritesContract,
  describeProvidersContract,
  describeReservationRepositoryContract,
  describeWebhookEndpointContract,
  type InspectableAdapterSet,
} from '@pis/testing';
import { inspectable, pgliteStore, type Store } from '../support/harness';

// One embedded database for the file (typeorm-pglite holds one PGlite per process); every
// contract test works in fresh locations of its own.
let shared: Promise<Store> | null = null;
const opened = (): Promise<Store> => (shared ??= pgliteStore());
const make = async (): Promise<InspectableAdapterSet> => ({
  ...inspectable(await opened()),
  close: undefined,
});
afterAll(async () => (await shared)?.close());

// The unit-of-work contract is left out: it expects the read side not to see a unit of work's
// uncommitted writes, and PGlite is a single session in which such a read can only run inside
// that transaction. `unit-of-work.pglite.ts` covers the rest of it.
describeReservationRepositoryContract('PGlite', make);
describePlainWritesContract('PGlite', make);
describeFloorPlanRepositoryContract('PGlite', make);
describeOrderRepositoryContract('PGlite', make);
describeOutboxContract('PGlite', make);
describeAccessContract('PGlite', make);
describeProvidersContract('PGlite', make);
describeWebhookEndpointContract('PGlite', make);
describeInspectionContracts('PGlite', make);
describeIdempotencyStoreContract('PGlite', async () => ({ store: (await opened()).idempotency }));
