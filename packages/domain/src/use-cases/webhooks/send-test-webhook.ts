import { fail, ok } from '../../kernel/outcome';
import type { WebhookTestResult } from '../../webhooks/webhook-test.port';
import type { UseCase } from '../use-case.types';

export type SendTestWebhook = UseCase<{ locationId: string }, WebhookTestResult>;

/**
 * One signed `webhook.test` to the location's endpoint, awaited. It is not an event of the
 * location (no sequence, no outbox row, no delivery record), so it can be sent at any time,
 * to a disabled endpoint too: the answer says whether the receiver takes deliveries now.
 */
export const sendTestWebhook: SendTestWebhook = async (deps, { locationId }) => {
  const endpoint = await deps.queries.webhooks.findEndpoint(locationId);
  if (endpoint === null) return fail('not_found', 'no webhook endpoint is registered; PUT one first');
  return ok(
    await deps.webhookTests.sendTest(endpoint, { id: `msg_test_${deps.ids.uuid()}`, at: deps.clock.now() }),
  );
};
