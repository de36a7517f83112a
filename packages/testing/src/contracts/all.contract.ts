import type { MakeAdapters, MakeInspectableAdapters } from './adapter-set';
import { describeAccessContract } from './access.contract';
import { describeDeliveryPipelineContract } from './delivery-pipeline.contract';
import { describeEventFeedContract } from './event-feed.contract';
import { describeFloorPlanRepositoryContract } from './floor-plan-repository.contract';
import { describeOrderRepositoryContract } from './order-repository.contract';
import { describePipelineBacklogContract } from './pipeline-backlog.contract';
import { describePlainWritesContract } from './plain-writes.contract';
import { describeOutboxContract, describeStoredEventsContract } from './outbox.contract';
import { describeProvidersContract } from './providers.contract';
import { describeReservationRepositoryContract } from './reservation-repository.contract';
import { describeUnitOfWorkContract } from './unit-of-work.contract';
import { describeWebhookDeliveryContract } from './webhook-delivery.contract';
import { describeWebhookEndpointContract } from './webhook-endpoint.contract';

/** Every suite that needs nothing beyond the ports. */
export function describeAllPortContracts(name: string, make: MakeAdapters): void {
  describeUnitOfWorkContract(name, make);
  describeReservationRepositoryContract(name, make);
  describePlainWritesContract(name, make);
  describeFloorPlanRepositoryContract(name, make);
  describeOrderRepositoryContract(name, make);
  describeOutboxContract(name, make);
  describeAccessContract(name, make);
  describeProvidersContract(name, make);
  describeWebhookEndpointContract(name, make);
}

/** The suites that also need the owner's inspection hooks (committed events, seeded deliveries, the pipeline). */
export function describeInspectionContracts(name: string, make: MakeInspectableAdapters): void {
  describeStoredEventsContract(name, make);
  describeWebhookDeliveryContract(name, make);
  describeDeliveryPipelineContract(name, make);
  describePipelineBacklogContract(name, make);
  describeEventFeedContract(name, make);
}
