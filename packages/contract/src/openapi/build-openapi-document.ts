import { componentSchemas } from '../schemas/components';
import type { OperationSpec } from './operation-spec';
import { operations } from './operations';
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
      description:
        'The integration surface between a reservation provider and the restaurant operating system. ' +
        'Every error has the same envelope; clients branch on error.code only and fall back on the HTTP ' +
        'status class for a code they do not know. An unknown route answers 404 and a known route with ' +
        'another method 405, both not_found. Request bodies are closed: unknown properties are refused ' +
        '(422), except posOrderId in a reservation.',
    },
    tags: [
      { name: 'provider', description: 'Provider API: reservations and floor plan (API key)' },
      { name: 'webhooks', description: 'Provider API: webhook endpoint and deliveries (API key)' },
      {
        name: 'backoffice',
        description: "Operator surface standing in for the restaurant OS's backoffice and till",
      },
    ],
    paths,
    webhooks: webhookOperations(),
    components: {
      schemas: componentsSchemas(),
      headers,
      securitySchemes: {
        providerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'The location-scoped API key, `<brand>_sk_live_<secret>`; it identifies the location.',
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

function operationObject(op: OperationSpec): Record<string, unknown> {
  const parameters = [...pathParameters(op), ...queryParameters(op)];
  const responses: Record<string, unknown> = { [op.success.status]: successResponse(op) };
  for (const [status, description] of Object.entries(op.errors)) {
    responses[status] = errorResponse(Number(status) as keyof typeof op.errors, description);
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: op.security === 'none' ? [] : [{ [op.security]: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaRef(op.body) } } } }
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
  return { description, headers: responseHeaders(status), ...(content ? { content } : {}) };
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
