import type { AccessQueries, KeyHasher, SecretFactory } from '../access/access-repository.port';
import type { EventFeedQueries } from '../events/event-feed.port';
import type { FloorPlanQueries } from '../floorplan/floor-plan-repository.port';
import type { OrderQueries } from '../orders/order-repository.port';
import type { TableStateQueries } from '../orders/table-state.port';
import type { PlainReservationWrites, ReservationQueries } from '../reservations/reservation-repository.port';
import type { Clock, IdGenerator } from '../system/system.port';
import type { UnitOfWork } from '../system/unit-of-work.port';
import type { WebhookQueries, WebhookUrlPolicy } from '../webhooks/webhook-endpoint-repository.port';
import type { WebhookTestSender } from '../webhooks/webhook-test.port';

/** Read side ports, used outside transactions. */
export interface Queries {
  reservations: ReservationQueries;
  floorPlans: FloorPlanQueries;
  orders: OrderQueries;
  access: AccessQueries;
  webhooks: WebhookQueries;
  events: EventFeedQueries;
  tableState: TableStateQueries;
}

/** Everything a use case may need; the composition root builds one. */
export interface Deps {
  uow: UnitOfWork;
  /** The one-statement path of writes that touch nothing but the reservation. */
  plainWrites: PlainReservationWrites;
  queries: Queries;
  clock: Clock;
  ids: IdGenerator;
  hasher: KeyHasher;
  secrets: SecretFactory;
  urlPolicy: WebhookUrlPolicy;
  /** Sends the one-off signed `webhook.test` of `POST /webhook-endpoint/test`. */
  webhookTests: WebhookTestSender;
}
