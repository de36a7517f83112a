import { describeAllPortContracts, describeInspectionContracts } from '../contracts';
import { inMemoryAdapterSet } from './create-in-memory-deps';

describeAllPortContracts('in-memory', inMemoryAdapterSet);
describeInspectionContracts('in-memory', inMemoryAdapterSet);
