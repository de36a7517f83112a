import {
  describeAllPortContracts,
  describeIdempotencyStoreContract,
  describeInspectionContracts,
} from '../contracts';
import { InMemoryIdempotencyStore } from '@pis/domain/in-memory';
import { inMemoryAdapterSet } from './create-in-memory-deps';

describeAllPortContracts('in-memory', inMemoryAdapterSet);
describeInspectionContracts('in-memory', inMemoryAdapterSet);
describeIdempotencyStoreContract('in-memory', async () => ({ store: new InMemoryIdempotencyStore() }));
