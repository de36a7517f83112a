import { describeAllPortContracts, describeInspectionContracts } from '@pis/testing';
import { inspectable, postgresStore } from './support/harness';

// Each suite gets its own database (its `make` runs once, in beforeAll).
describeAllPortContracts('PostgreSQL', async () => inspectable(await postgresStore()));
describeInspectionContracts('PostgreSQL', async () => inspectable(await postgresStore()));
