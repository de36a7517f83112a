import { fail, ok, type Failure } from '../../kernel/outcome';
import type { Transaction } from '../../system/unit-of-work.port';
import type { RecoverFrom } from '../../webhooks/event-recovery.port';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint';
import { eventsExpired } from '../events/event-feed';
import type { UseCase } from '../use-case.types';

export type RecoverWebhooks = UseCase<{ locationId: string; from: RecoverFrom }, { queued: number }>;
export type RecoverScopedWebhooks = UseCase<
  { id: string; locationId: string | null; providerId: string; from: RecoverFrom },
  { queued: number }
>;

/**
 * Queues every retained event after `from` that the endpoint subscribes to again, as new
 * deliveries with the events' original ids, in sequence order; events raised before the
 * endpoint existed included.
 */
export const recoverWebhooks: RecoverWebhooks = async (deps, { locationId, from }) =>
  recoverTo(
    deps,
    (tx) => tx.webhookEndpoints.lock(locationId),
    from,
    'PUT',
    () => fail('not_found', 'no webhook endpoint is registered; PUT one first'),
  );

/**
 * `recoverWebhooks` for one endpoint of the caller's scope (`POST /webhook-endpoints/{id}/recover`):
 * only the events committed while its provider was connected to the location are queued.
 */
export const recoverScopedWebhooks: RecoverScopedWebhooks = async (
  deps,
  { id, locationId, providerId, from },
) => {
  // Sequences are per location: a provider-scope endpoint recovers by time only.
  if (locationId === null && 'afterSequence' in from) {
    return fail(
      'validation_failed',
      'a provider-scope endpoint receives several locations, each with its own sequence: recover it with since',
      [{ path: '/afterSequence', message: 'not accepted for a provider-scope endpoint; send since instead' }],
    );
  }
  return recoverTo(
    deps,
    (tx) => tx.webhookEndpoints.lockById({ locationId, providerId }, id),
    from,
    'PATCH',
    () => fail('not_found', `there is no webhook endpoint ${id} here`),
  );
};

async function recoverTo(
  deps: Parameters<RecoverWebhooks>[0],
  lock: (tx: Transaction) => Promise<WebhookEndpoint | null>,
  from: RecoverFrom,
  enable: 'PUT' | 'PATCH',
  none: () => Failure,
) {
  return deps.uow.run(async (tx) => {
    const endpoint = await lock(tx);
    if (endpoint === null) return none();
    if (endpoint.disabledAt !== null) {
      return fail(
        'validation_failed',
        `the webhook endpoint is disabled (${endpoint.disabledReason ?? 'by the service'}); ${enable} it to enable it, then recover`,
      );
    }
    const requeued = await tx.eventRecovery.requeue(endpoint, from);
    if (requeued === 'expired') {
      return eventsExpired(
        'afterSequence' in from
          ? `the event after sequence ${from.afterSequence}`
          : `an event since ${from.since.toIso()}`,
      );
    }
    return ok(requeued);
  });
}
