import type {
  ApiKeyRepository,
  ConnectionRepository,
  EventRecoveryRepository,
  FloorPlanRepository,
  LocationRepository,
  OrderRepository,
  Outbox,
  ProviderRepository,
  ReservationRepository,
  DeliverableEvent,
  Transaction,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '@pis/domain';
import type { SecretCipher } from '../mappers/webhook.mapper';
import type { Sql } from '../db/sql';
import { PgEventRecovery } from '../webhooks/pg-event-recovery';
import {
  PgApiKeyRepository,
  PgLocationRepository,
  PgProviderRepository,
} from '../access/pg-access-repositories';
import { PgConnectionRepository } from '../access/pg-connection-repository';
import { PgFloorPlanRepository } from '../orders-and-tables/pg-floor-plan-repository';
import { PgOrderRepository } from '../orders-and-tables/pg-order-repository';
import { PgOutbox } from '../outbox/pg-outbox';
import { PgReservationRepository } from '../reservations/pg-reservation-repository';
import {
  PgWebhookDeliveryRepository,
  PgWebhookEndpointRepository,
} from '../webhooks/pg-webhook-repositories';

/** Every repository of one unit of work, all on its transaction's statements. */
export class PgTransaction implements Transaction {
  readonly reservations: ReservationRepository;
  readonly floorPlans: FloorPlanRepository;
  readonly orders: OrderRepository;
  readonly outbox: Outbox;
  readonly locations: LocationRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly providers: ProviderRepository;
  readonly connections: ConnectionRepository;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  readonly eventRecovery: EventRecoveryRepository;

  constructor(sql: Sql, cipher: SecretCipher, appended: DeliverableEvent[]) {
    this.reservations = new PgReservationRepository(sql);
    this.floorPlans = new PgFloorPlanRepository(sql);
    this.orders = new PgOrderRepository(sql);
    this.outbox = new PgOutbox(sql, appended);
    this.locations = new PgLocationRepository(sql);
    this.apiKeys = new PgApiKeyRepository(sql);
    this.providers = new PgProviderRepository(sql);
    this.connections = new PgConnectionRepository(sql);
    this.webhookEndpoints = new PgWebhookEndpointRepository(sql, cipher);
    this.webhookDeliveries = new PgWebhookDeliveryRepository(sql);
    this.eventRecovery = new PgEventRecovery(sql);
  }
}
