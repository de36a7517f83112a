export * from './kernel/instant';
export * from './kernel/outcome';
export * from './kernel/id-set';
export * from './kernel/trace-hooks';
export {
  shape,
  type Shape,
  type Field,
  type Fields,
  type InstantText,
  type Domain,
  type Plain,
  type Input,
  type DomainOf,
  type PlainOf,
  type InputOf,
} from './kernel/shape';
export * from './reservations/reservation';
export * from './reservations/reservation-write';
export * from './reservations/reservation-repository.port';
export * from './reservations/transactional-plain-writes';
export * from './floorplan/floor-plan';
export * from './floorplan/floor-plan-import';
export * from './floorplan/floor-plan-publish';
export * from './floorplan/floor-plan-changes';
export * from './floorplan/table-edit';
export * from './floorplan/table-check';
export * from './floorplan/floor-plan-repository.port';
export * from './orders/order';
export * from './orders/check';
export * from './orders/service-status';
export * from './orders/till';
export { checkData, ownerOf } from './orders/order-events';
export * from './orders/order-repository.port';
export * from './events/domain-event';
export * from './events/outbox.port';
export * from './events/event-feed.port';
export * from './orders/table-state';
export * from './orders/table-state.port';
export * from './access/location';
export * from './access/api-key';
export * from './access/access-repository.port';
export * from './access/provider';
export * from './access/connection';
export * from './access/visibility';
export * from './webhooks/webhook-endpoint';
export * from './webhooks/webhook-delivery';
export * from './webhooks/webhook-endpoint-repository.port';
export * from './webhooks/event-recovery.port';
export * from './webhooks/webhook-test.port';
export * from './idempotency/idempotent-request';
export * from './idempotency/idempotency-store.port';
export * from './system/system.port';
export * from './system/unit-of-work.port';
export * from './system/unavailable-error';
export * from './use-cases/deps';
export * from './use-cases/use-case.types';
export * from './use-cases/index';
