import type {
  ApiKeyRepository,
  FloorPlanRepository,
  LocationRepository,
  OrderRepository,
  Outbox,
  ReservationRepository,
  StoredEvent,
  Transaction,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '@pis/domain';
import type { QueryRunner } from 'typeorm';
import type { SecretCipher } from '../mappers/webhook.mapper';
import { Sql } from './sql';
import { TypeormApiKeyRepository, TypeormLocationRepository } from './typeorm-access-repositories';
import { TypeormFloorPlanRepository } from './typeorm-floor-plan-repository';
import { TypeormOrderRepository } from './typeorm-order-repository';
import { TypeormOutbox } from './typeorm-outbox';
import { TypeormReservationRepository } from './typeorm-reservation-repository';
import {
  TypeormWebhookDeliveryRepository,
  TypeormWebhookEndpointRepository,
} from './typeorm-webhook-repositories';

/** Every repository of one unit of work, all on its query runner (its transaction). */
export class TypeormTransaction implements Transaction {
  readonly reservations: ReservationRepository;
  readonly floorPlans: FloorPlanRepository;
  readonly orders: OrderRepository;
  readonly outbox: Outbox;
  readonly locations: LocationRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;

  constructor(runner: QueryRunner, cipher: SecretCipher, appended: StoredEvent[]) {
    const sql = new Sql(runner);
    this.reservations = new TypeormReservationRepository(sql);
    this.floorPlans = new TypeormFloorPlanRepository(sql);
    this.orders = new TypeormOrderRepository(sql);
    this.outbox = new TypeormOutbox(sql, appended);
    this.locations = new TypeormLocationRepository(sql);
    this.apiKeys = new TypeormApiKeyRepository(sql);
    this.webhookEndpoints = new TypeormWebhookEndpointRepository(sql, cipher);
    this.webhookDeliveries = new TypeormWebhookDeliveryRepository(sql);
  }
}
