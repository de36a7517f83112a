import { componentSchemas } from '../schemas/components';
import { namesLocation, withLocationErrors, type OperationSpec } from './operation-spec';
import { operations } from './operations';
import { OVERVIEW } from './overview';
import { errorResponse, headers, responseHeaders } from './responses';
import { componentsSchemas, schemaRef, withRefs } from './schema-refs';
import { webhookOperations } from './webhooks';

export const API_VERSION = '1.0.0';

/** The OpenAPI 3.1 document of both APIs and the webhooks, generated from the contract's schemas. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reservation Provider Integration Service',
      version: API_VERSION,
      description: OVERVIEW,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the API is wherever this document was fetched from.
    servers: [{ url: '/', description: 'the service serving this document' }],
    tags: [
      { name: 'provider', description: 'Provider API: reservations and floor plan (API key)' },
      { name: 'webhooks', description: 'Provider API: webhook endpoint and deliveries (API key)' },
      {
        name: 'recovery',
        description:
          'Provider API: the event feed, the table-state snapshot and recover, to rebuild what missed webhooks carried (API key)',
      },
      {
        name: 'sandbox',
        description:
          "Provider API, test keys only: a till simulator on the key's own sandbox location, to cause every event without an operator",
      },
      {
        name: 'backoffice',
        description: "Operator surface standing in for the restaurant OS's backoffice and till",
      },
      { name: 'health', description: 'Liveness and readiness probes (no credential)' },
    ],
    paths,
    webhooks: webhookOperations(),
    components: {
      schemas: componentsSchemas(),
      headers,
      parameters: { LocationId: LOCATION_ID },
      securitySchemes: {
        providerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A location key, `<brand>_sk_live_<secret>` (a sandbox location: `<brand>_sk_test_<secret>`), which ' +
            'identifies its location; or a provider key, `<brand>_pk_live_<secret>` (`<brand>_pk_test_<secret>` for ' +
            'sandbox locations), which names the location of each request with the Location-Id header. ' +
            'Answers carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, counted per key and location.',
        },
        backofficeToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The operator token (BACKOFFICE_TOKEN).',
        },
      },
    },
  };
}

/** The header a provider key names the location of a request with. */
const LOCATION_ID = {
  name: 'Location-Id',
  in: 'header',
  required: false,
  description:
    'The location this request acts for: required with a provider key (else 400 location_required), which must ' +
    'be connected to it (else 403 location_not_granted). A location key may leave it out; one equal to its own ' +
    'location is ignored, any other is 403 location_not_granted.',
  schema: { type: 'string', format: 'uuid' },
};

function operationObject(op: OperationSpec): Record<string, unknown> {
  const location = namesLocation(op) ? [{ $ref: '#/components/parameters/LocationId' }] : [];
  const parameters = [...pathParameters(op), ...queryParameters(op), ...location];
  const rateLimited = op.security === 'providerKey';
  const responses: Record<string, unknown> = { [op.success.status]: successResponse(op) };
  if (op.alsoSuccess) {
    responses[op.alsoSuccess.status] = { ...successResponse(op), description: op.alsoSuccess.description };
  }
  const errors = namesLocation(op) ? withLocationErrors(op.errors) : op.errors;
  for (const [status, description] of Object.entries(errors)) {
    responses[status] = errorResponse(Number(status) as keyof typeof op.errors, description, rateLimited);
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: op.security === 'none' ? [] : [{ [op.security]: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.bodyOptional !== true,
            content: { 'application/json': { schema: schemaRef(op.body) } },
          },
        }
      : {}),
    responses,
  };
}

function successResponse(op: OperationSpec) {
  const { status, description, schema } = op.success;
  const content =
    schema === null
      ? undefined
      : {
          'application/json': {
            schema: schema === 'OpenApiDocument' ? { type: 'object' } : schemaRef(schema),
          },
        };
  return {
    description,
    headers: responseHeaders(status, op.security === 'providerKey'),
    ...(content ? { content } : {}),
  };
}

const pathParameters = (op: OperationSpec) =>
  (op.pathParams ?? []).map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    description: p.description,
    schema: { type: 'string', minLength: 1 },
  }));

function queryParameters(op: OperationSpec) {
  if (!op.query) return [];
  const schema = componentSchemas[op.query];
  const required: readonly string[] = schema.required;
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema: withRefs(property),
  }));
}
