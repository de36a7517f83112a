import { componentSchemas } from '../schemas/components';
import { EXAMPLES } from './examples';
import { idempotencyKeyParameter, takesIdempotencyKey, withIdempotencyErrors } from './idempotency';
import { namesLocation, withLocationErrors, type ErrorStatus, type OperationSpec } from './operation-spec';
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
      examples: EXAMPLES.shared,
      parameters: { IdempotencyKey: idempotencyKeyParameter, LocationId: LOCATION_ID },
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
    'location is ignored, any other is 403 location_not_granted. On the webhook endpoint routes that say so, a ' +
    'provider key leaves it out to act on its provider-scope endpoints.',
  schema: { type: 'string', format: 'uuid' },
};

function operationObject(op: OperationSpec): Record<string, unknown> {
  const idempotent = takesIdempotencyKey(op);
  const location = namesLocation(op) ? [{ $ref: '#/components/parameters/LocationId' }] : [];
  const parameters = [
    ...pathParameters(op),
    ...queryParameters(op),
    ...location,
    ...(idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  const rateLimited = op.security === 'providerKey';
  const responses: Record<string, unknown> = { [op.success.status]: successResponse(op) };
  if (op.alsoSuccess) {
    responses[op.alsoSuccess.status] = { ...successResponse(op), description: op.alsoSuccess.description };
  }
  const located = namesLocation(op) ? withLocationErrors(op.errors, op.providerScope === true) : op.errors;
  const errors = idempotent ? withIdempotencyErrors(located) : located;
  for (const [status, description] of Object.entries(errors)) {
    const code = Number(status) as ErrorStatus;
    responses[status] = errorResponse(code, description, rateLimited, idempotent, responseExamples(op, code));
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
            content: {
              'application/json': { schema: schemaRef(op.body), ...examplesOf(requestExamples(op)) },
            },
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
            ...examplesOf(responseExamples(op, status)),
          },
        };
  return {
    description,
    headers: responseHeaders(status, op.security === 'providerKey', takesIdempotencyKey(op)),
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

/** `examples` of a media type, when there are any. */
const examplesOf = (examples: Record<string, unknown> | undefined) =>
  examples === undefined ? {} : { examples };

/** What the recording sent to the operation (the simulator twins record their own). */
const requestExamples = (op: OperationSpec) => EXAMPLES.operations[op.operationId]?.request;

/**
 * Which shared answer (components.examples) stands for an error status the operation gives
 * like every other, when the recording has none of its own.
 */
const SHARED_ANSWERS: Partial<Record<ErrorStatus, (op: OperationSpec) => string | undefined>> = {
  400: (op) => (op.body ? 'InvalidJson' : 'InvalidHttp'),
  401: (op) => (op.security === 'backofficeToken' ? 'UnauthorizedOperator' : 'Unauthorized'),
  403: (op) => (op.tag === 'sandbox' ? 'SandboxOnly' : undefined),
  413: () => 'BodyTooLarge',
  415: () => 'UnsupportedMediaType',
  429: () => 'RateLimited',
  500: () => 'InternalError',
  503: () => 'Unavailable',
};

/** The recorded answers of the operation at this status, else the shared one, by example name. */
function responseExamples(op: OperationSpec, status: number): Record<string, unknown> | undefined {
  const examples = { ...(ownOrSharedExamples(op, status) ?? {}) };
  // What an Idempotency-Key adds to every POST, and a Location-Id to every location route,
  // where the recording shows no answer of that code.
  const added = [
    ...(takesIdempotencyKey(op) ? (IDEMPOTENCY_ANSWERS[status] ?? []) : []),
    ...(namesLocation(op) ? (LOCATION_ANSWERS[status] ?? []) : []).filter(
      (name) => !(op.providerScope && name === 'LocationRequired'),
    ),
  ];
  for (const name of added) {
    const shared = EXAMPLES.shared[name];
    if (shared === undefined) continue; // not recorded yet (a recording in progress)
    const { code } = (shared.value as { error: { code: string } }).error;
    examples[code] ??= { $ref: `#/components/examples/${name}` };
  }
  return Object.keys(examples).length > 0 ? examples : undefined;
}

const IDEMPOTENCY_ANSWERS: Partial<Record<number, string[]>> = {
  409: ['IdempotencyInProgress'],
  422: ['IdempotencyKeyReused', 'InvalidIdempotencyKey'],
};

const LOCATION_ANSWERS: Partial<Record<number, string[]>> = {
  400: ['LocationRequired'],
  403: ['LocationNotGranted'],
  422: ['InvalidLocationId'],
};

function ownOrSharedExamples(op: OperationSpec, status: number): Record<string, unknown> | undefined {
  const recorded = EXAMPLES.operations[op.operationId]?.responses[String(status)];
  if (recorded) return recorded;
  // Only for a status the operation gives of its own (not one a header adds).
  if (op.errors[status as ErrorStatus] === undefined) return undefined;
  const name = SHARED_ANSWERS[status as ErrorStatus]?.(op);
  const shared = name === undefined ? undefined : EXAMPLES.shared[name];
  if (shared === undefined) return undefined;
  const { code } = (shared.value as { error: { code: string } }).error;
  return { [code]: { $ref: `#/components/examples/${name}` } };
}
