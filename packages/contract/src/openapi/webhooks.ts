import type { ComponentName } from '../schemas/components';
import { EXAMPLES, type WebhookExample } from './examples';
import { webhookHeaderParameters } from './responses';
import { schemaRef } from './schema-refs';

const AT_LEAST_ONCE =
  'Signed per Standard Webhooks. Delivered at least once, from a transactional outbox: ' +
  'deduplicate on webhook-id and order on data.locationEventSequence.';

const CONNECTION =
  'Signed per Standard Webhooks. Delivered at least once, from the transactional outbox, to the ' +
  "provider's provider-scope endpoints only (a provider key without Location-Id) that subscribe to " +
  "it: deduplicate on webhook-id. Outside every location's sequence and feed (no " +
  'locationEventSequence); GET /connections is its fallback.';

const EVENTS: { type: string; schema: ComponentName; summary: string; description?: string }[] = [
  {
    type: 'floorplan.published',
    schema: 'FloorplanPublishedEvent',
    summary: 'The operator published a plan: GET the floor plan and check the stored mapping still resolves',
  },
  {
    type: 'table.occupied',
    schema: 'TableOccupiedEvent',
    summary: 'One per table when an order opens on it or moves onto it',
  },
  {
    type: 'table.freed',
    schema: 'TableFreedEvent',
    summary: 'One per table when its order closes, is voided or moves away',
  },
  {
    type: 'table.spend_updated',
    schema: 'TableSpendUpdatedEvent',
    summary: "An open order's check (items, discounts, payments) or covers changed; carries the totals",
  },
  {
    type: 'table.status_changed',
    schema: 'TableStatusChangedEvent',
    summary: 'The till set the service status of an open order (seated ... bill_requested, paid)',
  },
  {
    type: 'order.closed',
    schema: 'OrderClosedEvent',
    summary: 'An order was closed (paid); carries its final check. Sent after its table.freed events',
  },
  {
    type: 'connection.granted',
    schema: 'ConnectionGrantedEvent',
    summary:
      "The operator granted the provider a location (first grant or re-grant): to the provider's provider-scope endpoints",
    description: CONNECTION,
  },
  {
    type: 'connection.revoked',
    schema: 'ConnectionRevokedEvent',
    summary:
      "The operator revoked the provider's connection to a location: to the provider's provider-scope endpoints",
    description: CONNECTION,
  },
  {
    type: 'webhook.test',
    schema: 'WebhookTestEvent',
    summary: 'Sent only by POST /webhook-endpoint/test: check the receiver verifies and answers 2xx',
    description:
      'Signed per Standard Webhooks with the same secrets as every delivery. Sent once, when asked, ' +
      'and never retried; it carries no locationEventSequence: do not apply it as a change.',
  },
];

/** OpenAPI 3.1 `webhooks`: what the service POSTs to the registered endpoint. */
export function webhookOperations(): Record<string, unknown> {
  return Object.fromEntries(
    EVENTS.map((event) => [
      event.type,
      {
        post: {
          operationId: `webhook_${event.type.replace('.', '_')}`,
          tags: ['webhooks'],
          summary: event.summary,
          description: event.description ?? AT_LEAST_ONCE,
          // Not an HTTP auth scheme: the receiver checks the webhook-signature header below.
          security: [],
          parameters: withExamples(event.type),
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: schemaRef(event.schema), examples: bodyExample(event.type) },
            },
          },
          responses: {
            '2XX': { description: 'received; any 2xx within the timeout (default 10 s) ends the delivery' },
            default: {
              description: 'anything else (or no answer in time) is retried on the schedule, then failed',
            },
          },
        },
      },
    ]),
  );
}

/**
 * A delivery of this type as recorded: the body, and headers signed over it with the endpoint's
 * secret. Absent only while a recording that first shows the type is in progress (the examples
 * test fails while the recorded file lacks one).
 */
const recorded = (type: string): WebhookExample | undefined => EXAMPLES.webhooks[type];

function bodyExample(type: string) {
  const example = recorded(type);
  if (example === undefined) return undefined;
  const { headers, body } = example;
  const sent = Object.entries(headers)
    .map(([name, value]) => `\`${name}: ${value}\``)
    .join(', ');
  return {
    [type]: {
      summary: `a ${type} delivery`,
      description:
        `Sent with ${sent}. The signature is over this body as compact JSON (no spaces), with the ` +
        'secret of the webhook endpoint example: check your verifier against it.',
      value: body,
    },
  };
}

/** The Standard Webhooks headers with the values of the recorded delivery. */
const withExamples = (type: string) =>
  webhookHeaderParameters.map((parameter) => {
    const example = recorded(type);
    if (example === undefined) return parameter;
    return {
      ...parameter,
      examples: {
        [type]: { value: example.headers[parameter.name as keyof WebhookExample['headers']] },
      },
    };
  });
