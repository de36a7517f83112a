import type { ValidationDetail } from '@pis/domain';
import type { ComponentName } from '../schemas/components';
import { createValidator, type ContractValidator } from '../validation/validator';
import { buildOpenApiDocument } from './build-openapi-document';

type Headers = Record<string, string | string[] | number | undefined>;
/** Checks one real response; an empty list means it matches the document. */
export type ResponseCheck = (body: unknown, headers?: Headers) => ValidationDetail[];

interface ResponseObject {
  content?: Record<string, { schema: { $ref?: string } }>;
  headers?: Record<string, { $ref: string }>;
}
interface HeaderObject {
  required?: boolean;
  schema: { type?: string; const?: unknown };
}
type Document = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, ResponseObject> }>>;
  components: { headers: Record<string, HeaderObject> };
};

/**
 * Reads the expected response of `operationId` at `status` out of the OpenAPI document
 * itself (not out of the table it was built from) and checks bodies and required headers
 * against it. Throws when the document does not list that status for that operation: an
 * endpoint answering with an undocumented status is a defect of the endpoint or the document.
 */
export function createResponseValidator(
  validator: ContractValidator = createValidator(),
  document = buildOpenApiDocument() as unknown as Document,
): (operationId: string, status: number) => ResponseCheck {
  return (operationId, status) => {
    const operation = Object.values(document.paths)
      .flatMap((methods) => Object.values(methods))
      .find((op) => op.operationId === operationId);
    if (!operation) throw new Error(`the OpenAPI document has no operation ${operationId}`);
    const response = operation.responses[String(status)];
    if (!response) {
      const listed = Object.keys(operation.responses).join(', ');
      throw new Error(`${operationId} does not document status ${status} (it lists ${listed})`);
    }
    return (body, headers) => [
      ...bodyDetails(validator, response, body),
      ...(headers ? headerDetails(document, response, headers) : []),
    ];
  };
}

function bodyDetails(
  validator: ContractValidator,
  response: ResponseObject,
  body: unknown,
): ValidationDetail[] {
  const schema = response.content?.['application/json']?.schema;
  if (schema === undefined) {
    const empty = body === undefined || body === null || body === '' || isEmptyObject(body);
    return empty ? [] : [{ path: '', message: 'must be empty: the document lists no content' }];
  }
  if (schema.$ref === undefined) {
    return typeof body === 'object' && body !== null ? [] : [{ path: '', message: 'must be an object' }];
  }
  const name = schema.$ref.replace('#/components/schemas/', '') as ComponentName;
  const checked = validator.check(name, body);
  return checked.ok ? [] : checked.details;
}

function headerDetails(document: Document, response: ResponseObject, headers: Headers): ValidationDetail[] {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const details: ValidationDetail[] = [];
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const header = document.components.headers[ref.$ref.replace('#/components/headers/', '')];
    const value = lower[name.toLowerCase()];
    const path = `header ${name}`;
    if (value === undefined) {
      if (header?.required) details.push({ path, message: 'is required' });
    } else if (header?.schema.const !== undefined && String(value) !== header.schema.const) {
      details.push({ path, message: `must be ${String(header.schema.const)}` });
    } else if (header?.schema.type === 'integer' && !/^\d+$/.test(String(value))) {
      details.push({ path, message: 'must be a whole number' });
    }
  }
  return details;
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

let shared: ReturnType<typeof createResponseValidator> | undefined;

/** A response check built once per process (for HTTP tests). */
export function responseValidator(operationId: string, status: number): ResponseCheck {
  shared ??= createResponseValidator();
  return shared(operationId, status);
}
