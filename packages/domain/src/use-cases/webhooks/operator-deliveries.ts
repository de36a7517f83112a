import type { UseCase } from '../use-case.types';
import { requireLocation } from '../access/require-location';
import { listWebhookDeliveries, redeliverWebhook } from './webhook-endpoint-commands';

/**
 * A provider use case for the operator, who names the location in the path: an unknown
 * location is `not_found` before the use case runs (a provider's key always has one).
 */
const atKnownLocation =
  <C extends { locationId: string | null }, R>(useCase: UseCase<C, R>): UseCase<C, R> =>
  async (deps, command) => {
    const location = await requireLocation(deps, command.locationId ?? '');
    return location.ok ? useCase(deps, command) : location;
  };

/** The delivery log of a location, as the provider reads it. */
export const listLocationWebhookDeliveries = atKnownLocation(listWebhookDeliveries);

/** Queues one delivery of a location again, as the provider's redeliver does. */
export const redeliverLocationWebhook = atKnownLocation(redeliverWebhook);
