import {
  changeEndpoint,
  createEndpoint,
  ENDPOINTS_PER_SCOPE,
  rotateSecret,
  subscribableTypes,
  type EndpointChange,
  type WebhookEndpoint,
} from '../../webhooks/webhook-endpoint';
import { fail, ok } from '../../kernel/outcome';
import type { WebhookEventType } from '../../events/domain-event';
import type { EndpointScope } from '../../webhooks/webhook-endpoint-repository.port';
import type { WebhookTestResult } from '../../webhooks/webhook-test.port';
import type { UseCase } from '../use-case.types';

/**
 * The endpoints of one scope (one provider at one location) by id, beside the singleton of
 * `PUT /webhook-endpoint`: each with its own secret, retries, log and health. An id of
 * another scope reads as no endpoint at all.
 */
export type CreateWebhookEndpoint = UseCase<
  EndpointScope & { url: string; events: WebhookEventType[] | null; description: string | null },
  WebhookEndpoint
>;
export type ListWebhookEndpoints = UseCase<EndpointScope, WebhookEndpoint[]>;
export type GetScopedWebhookEndpoint = UseCase<EndpointScope & { id: string }, WebhookEndpoint>;
export type ChangeWebhookEndpoint = UseCase<
  EndpointScope & { id: string; change: EndpointChange },
  WebhookEndpoint
>;
export type DeleteScopedWebhookEndpoint = UseCase<EndpointScope & { id: string }, { deleted: true }>;
export type RotateScopedWebhookSecret = UseCase<EndpointScope & { id: string }, WebhookEndpoint>;
export type SendScopedTestWebhook = UseCase<EndpointScope & { id: string }, WebhookTestResult>;
const noSuch = (id: string) => fail('not_found', `there is no webhook endpoint ${id} here`);

const urlRefused = async (deps: Parameters<CreateWebhookEndpoint>[0], url: string) => {
  const refusal = await deps.urlPolicy.check(url);
  return refusal === null ? null : fail('validation_failed', refusal, [{ path: '/url', message: refusal }]);
};

/** Connection events go to provider-scope endpoints only: a location scope naming one is refused. */
const typesRefused = (locationId: string | null, events: readonly WebhookEventType[] | null | undefined) => {
  const allowed = subscribableTypes(locationId);
  const index = (events ?? []).findIndex((t) => !allowed.includes(t));
  if (index < 0) return null;
  const message = `${events![index]} is delivered to provider-scope endpoints only (a provider key without Location-Id)`;
  return fail('validation_failed', message, [{ path: `/eventTypes/${index}`, message }]);
};

/** Counted under the scope's lock: two creations racing for the last place cannot both take it. */
export const createWebhookEndpoint: CreateWebhookEndpoint = async (deps, command) => {
  const wrongTypes = typesRefused(command.locationId, command.events);
  if (wrongTypes !== null) return wrongTypes;
  const refused = await urlRefused(deps, command.url);
  if (refused !== null) return refused;
  return deps.uow.run(async (tx) => {
    const held = await tx.webhookEndpoints.lockScope(command);
    if (held >= ENDPOINTS_PER_SCOPE) {
      return fail(
        'endpoint_limit',
        `this scope already has ${held} webhook endpoints, the most it may have (${ENDPOINTS_PER_SCOPE}); delete one first`,
      );
    }
    const endpoint = createEndpoint({
      id: deps.ids.uuid(),
      locationId: command.locationId,
      providerId: command.providerId,
      url: command.url,
      events: command.events,
      description: command.description,
      newSecret: deps.secrets.webhookSecret(),
      now: deps.clock.now(),
    });
    await tx.webhookEndpoints.save(endpoint);
    return ok(endpoint);
  });
};

export const listWebhookEndpoints: ListWebhookEndpoints = async (deps, scope) =>
  ok(await deps.queries.webhooks.listEndpoints(scope));

const inScope = (endpoint: WebhookEndpoint | null, scope: EndpointScope): endpoint is WebhookEndpoint =>
  endpoint !== null && endpoint.locationId === scope.locationId && endpoint.providerId === scope.providerId;

export const getScopedWebhookEndpoint: GetScopedWebhookEndpoint = async (deps, { id, ...scope }) => {
  const endpoint = await deps.queries.webhooks.findEndpointById(id);
  return inScope(endpoint, scope) ? ok(endpoint) : noSuch(id);
};

/** Like a PUT of the singleton, a change re-enables a disabled endpoint; its secrets stay. */
export const changeWebhookEndpoint: ChangeWebhookEndpoint = async (deps, { id, change, ...scope }) => {
  if (change.url !== undefined) {
    const refused = await urlRefused(deps, change.url);
    if (refused !== null) return refused;
  }
  const wrongTypes = typesRefused(scope.locationId, change.events);
  if (wrongTypes !== null) return wrongTypes;
  return deps.uow.run(async (tx) => {
    const endpoint = await tx.webhookEndpoints.lockById(scope, id);
    if (endpoint === null) return noSuch(id);
    const changed = {
      ...changeEndpoint(endpoint, change, deps.clock.now()),
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    };
    await tx.webhookEndpoints.save(changed);
    return ok(changed);
  });
};

export const deleteScopedWebhookEndpoint: DeleteScopedWebhookEndpoint = async (deps, { id, ...scope }) =>
  deps.uow.run(async (tx) =>
    (await tx.webhookEndpoints.deleteById(scope, id)) ? ok({ deleted: true as const }) : noSuch(id),
  );

export const rotateScopedWebhookSecret: RotateScopedWebhookSecret = async (deps, { id, ...scope }) =>
  deps.uow.run(async (tx) => {
    const endpoint = await tx.webhookEndpoints.lockById(scope, id);
    if (endpoint === null) return noSuch(id);
    const rotated = rotateSecret(endpoint, deps.secrets.webhookSecret(), deps.clock.now());
    await tx.webhookEndpoints.save(rotated);
    return ok(rotated);
  });

export const sendScopedTestWebhook: SendScopedTestWebhook = async (deps, { id, ...scope }) => {
  const endpoint = await deps.queries.webhooks.findEndpointById(id);
  if (!inScope(endpoint, scope)) return noSuch(id);
  return ok(
    await deps.webhookTests.sendTest(endpoint, { id: `msg_test_${deps.ids.uuid()}`, at: deps.clock.now() }),
  );
};
