import type {
  ApiKeyRepository,
  ConnectionRepository,
  LocationRepository,
  ProviderRepository,
} from '../access/access-repository.port';
import type { EventRecoveryRepository } from '../webhooks/event-recovery.port';
import type { Outbox } from '../events/outbox.port';
import type { FloorPlanRepository } from '../floorplan/floor-plan-repository.port';
import type { OrderRepository } from '../orders/order-repository.port';
import type { ReservationRepository } from '../reservations/reservation-repository.port';
import type { Outcome } from '../kernel/outcome';
import type {
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '../webhooks/webhook-endpoint-repository.port';

/** The repositories of one transaction. */
export interface Transaction {
  reservations: ReservationRepository;
  floorPlans: FloorPlanRepository;
  orders: OrderRepository;
  outbox: Outbox;
  locations: LocationRepository;
  apiKeys: ApiKeyRepository;
  providers: ProviderRepository;
  connections: ConnectionRepository;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  eventRecovery: EventRecoveryRepository;
}

/**
 * One transaction per command. The work commits when it resolves to a success, and rolls
 * back when it resolves to a failure or throws: a refused command leaves nothing behind.
 * Row locks taken through the repositories are held until then. An adapter may run the
 * work again when the database aborts it for a deadlock or a serialisation failure, so
 * the work must not act on the outside world.
 */
export interface UnitOfWork {
  run<T>(work: (tx: Transaction) => Promise<Outcome<T>>): Promise<Outcome<T>>;
}
