import { registerEndpoint, rotateSecret } from '../../webhooks/webhook-endpoint';
import { fail, ok } from '../../kernel/outcome';
import { pageOf } from '../page';
import type { EventType } from '../../events/domain-event';
import type { DeliveryCursor, DeliveryStatus, WebhookDelivery } from '../../webhooks/webhook-delivery';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint';
import type { Page, UseCase } from '../use-case.types';

export type DeleteWebhookEndpoint = UseCase<{ locationId: string }, { deleted: true }>;
export type GetWebhookEndpoint = UseCase<{ locationId: string }, WebhookEndpoint>;
export type ListWebhookDeliveries = UseCase<
  {
    /** null: the deliveries to the provider's provider-scope endpoints, at every location. */
    locationId: string | null;
    /** Only the deliveries to this provider's endpoints (absent: every endpoint, the operator's view). */
    providerId?: string | null;
    /** Only the deliveries to this endpoint. */
    endpointId?: string | null;
    status: DeliveryStatus | null;
    limit: number;
    after: DeliveryCursor | null;
  },
  Page<WebhookDelivery, DeliveryCursor>
>;
export type RedeliverWebhook = UseCase<{ locationId: string; deliveryId: string }, { deliveryId: string }>;
export type RegisterWebhookEndpoint = UseCase<
  { locationId: string; url: string; events: EventType[] | null },
  WebhookEndpoint
>;
/** The old secret keeps signing for 24 h beside the new one. */
export type RotateWebhookSecret = UseCase<{ locationId: string }, WebhookEndpoint>;

const noEndpoint = () => fail('not_found', 'no webhook endpoint is registered; PUT one first');

/** URL rules are checked before anything is stored (and again at every delivery). */
export const registerWebhookEndpoint: RegisterWebhookEndpoint = async (deps, { locationId, url, events }) => {
  const refusal = await deps.urlPolicy.check(url);
  if (refusal !== null) return fail('validation_failed', refusal, [{ path: '/url', message: refusal }]);
  return deps.uow.run(async (tx) => {
    const existing = await tx.webhookEndpoints.lock(locationId);
    const endpoint = registerEndpoint(existing, {
      id: deps.ids.uuid(),
      locationId,
      url,
      events,
      newSecret: deps.secrets.webhookSecret(),
      now: deps.clock.now(),
    });
    await tx.webhookEndpoints.save(endpoint);
    return ok(endpoint);
  });
};

export const getWebhookEndpoint: GetWebhookEndpoint = async (deps, { locationId }) => {
  const endpoint = await deps.queries.webhooks.findEndpoint(locationId);
  return endpoint ? ok(endpoint) : noEndpoint();
};

export const deleteWebhookEndpoint: DeleteWebhookEndpoint = async (deps, { locationId }) =>
  deps.uow.run(async (tx) =>
    (await tx.webhookEndpoints.delete(locationId)) ? ok({ deleted: true as const }) : noEndpoint(),
  );

export const rotateWebhookSecret: RotateWebhookSecret = async (deps, { locationId }) =>
  deps.uow.run(async (tx) => {
    const endpoint = await tx.webhookEndpoints.lock(locationId);
    if (endpoint === null) return noEndpoint();
    const rotated = rotateSecret(endpoint, deps.secrets.webhookSecret(), deps.clock.now());
    await tx.webhookEndpoints.save(rotated);
    return ok(rotated);
  });

export const listWebhookDeliveries: ListWebhookDeliveries = async (
  deps,
  { locationId, providerId, endpointId, status, limit, after },
) => {
  const rows = await deps.queries.webhooks.listDeliveries({
    locationId,
    providerId: providerId ?? null,
    endpointId: endpointId ?? null,
    status,
    after,
    limit: limit + 1,
  });
  return ok(pageOf(rows, limit, (last) => ({ createdAt: last.createdAt, id: last.id })));
};

export const redeliverWebhook: RedeliverWebhook = async (deps, { locationId, deliveryId }) =>
  deps.uow.run(async (tx) =>
    (await tx.webhookDeliveries.requestRedelivery(locationId, deliveryId))
      ? ok({ deliveryId })
      : fail('not_found', `there is no webhook delivery ${deliveryId}`),
  );
