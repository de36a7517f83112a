import { InitialSchema1764000000000 } from './1764000000000-initial-schema';
import { TillCheck1764200000000 } from './1764200000000-till-check';
import { SandboxLocations1764300000001 } from './1764300000001-sandbox-locations';
import { EndpointHealth1764500000000 } from './1764500000000-endpoint-health';
import { EventFeed1764510000000 } from './1764510000000-event-feed';
import { FloorplanPublishedChanges1764510000001 } from './1764510000001-floorplan-published-changes';
import { RoomForHotUpdates1764600000000 } from './1764600000000-room-for-hot-updates';
import { UnqueuedDeliveries1764700000000 } from './1764700000000-unqueued-deliveries';
import { IdempotencyKeys1764900000000 } from './1764900000000-idempotency-keys';
import { ProvidersAndConnections1764910000000 } from './1764910000000-providers-and-connections';
import { SeveralWebhookEndpoints1765000000000 } from './1765000000000-several-webhook-endpoints';
import { OutboxTraceContext1765100000000 } from './1765100000000-outbox-trace-context';
import { ProviderScopeEndpoints1765200000000 } from './1765200000000-provider-scope-endpoints';

/** Every migration, oldest first. Add new ones here and as files beside this one. */
export const MIGRATIONS = [
  InitialSchema1764000000000,
  TillCheck1764200000000,
  SandboxLocations1764300000001,
  EndpointHealth1764500000000,
  EventFeed1764510000000,
  FloorplanPublishedChanges1764510000001,
  RoomForHotUpdates1764600000000,
  UnqueuedDeliveries1764700000000,
  IdempotencyKeys1764900000000,
  ProvidersAndConnections1764910000000,
  SeveralWebhookEndpoints1765000000000,
  OutboxTraceContext1765100000000,
  ProviderScopeEndpoints1765200000000,
];
