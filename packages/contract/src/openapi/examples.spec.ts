import { createHmac } from 'node:crypto';
import { CONNECTION_EVENT_TYPES, EVENT_TYPES } from '@pis/domain';
import { ERROR_CODE_VALUES } from '../schemas/error.schema';
import type { ComponentName } from '../schemas/components';
import { DATE_TIME_INPUT_PATTERN } from '../schemas/primitives';
import { createValidator } from '../validation/validator';
import { buildOpenApiDocument } from './build-openapi-document';

type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
/** The service's own validator: the one ajv instance, with the contract's date-time formats. */
const validator = createValidator();

const schemaName = (media: Json) =>
  String(media.schema.$ref).replace('#/components/schemas/', '') as ComponentName;

/** An example's value, following a `$ref` into components.examples. */
function valueOf(example: Json): unknown {
  if (typeof example.$ref !== 'string') return example.value;
  const name = example.$ref.replace('#/components/examples/', '');
  const shared = doc.components.examples[name];
  if (!shared) throw new Error(`${example.$ref} is not in components.examples`);
  return shared.value;
}

const operations = Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
  Object.entries(methods as Json).map(([method, op]) => ({
    path,
    method,
    op: op as Json,
    id: op.operationId as string,
  })),
);

/** Every example of the document: where it is, the schema it must match and its value. */
function everyExample(): { at: string; schema: ComponentName; value: unknown }[] {
  const found: { at: string; schema: ComponentName; value: unknown }[] = [];
  const collect = (at: string, media: Json | undefined) => {
    if (!media?.schema?.$ref) return;
    for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) {
      found.push({ at: `${at} ${name}`, schema: schemaName(media), value: valueOf(example) });
    }
  };
  for (const { id, op } of operations) {
    collect(`${id} request`, op.requestBody?.content['application/json']);
    for (const [status, response] of Object.entries(op.responses as Json)) {
      collect(`${id} ${status}`, response.content?.['application/json']);
    }
  }
  for (const [type, webhook] of Object.entries(doc.webhooks as Json)) {
    collect(`webhook ${type}`, webhook.post.requestBody.content['application/json']);
  }
  return found;
}

describe('The examples of the OpenAPI document', () => {
  it('When every example is checked against its schema with the service validator, then each is valid', () => {
    const examples = everyExample();
    expect(examples.length).toBeGreaterThan(200);
    const invalid = examples
      .map(({ at, schema, value }) => ({ at, schema, checked: validator.check(schema, value) }))
      .filter(({ checked }) => !checked.ok);
    expect(invalid).toEqual([]);
  });

  it('When an example is broken, then the same check refuses it (the check can fail)', () => {
    const { schema, value } = everyExample().find(({ at }) => at === 'createReservation request full')!;
    expect(validator.check(schema, { ...(value as Json), startsAt: '4817-72-80T47:49:23.076Z' }).ok).toBe(
      false,
    );
  });

  it('When an operation takes a body, then the document shows at least one real request example', () => {
    const without = operations
      .filter(({ op }) => op.requestBody)
      .filter(({ op }) => Object.keys(op.requestBody.content['application/json'].examples ?? {}).length === 0)
      .map(({ id }) => id);
    expect(without).toEqual([]);
  });

  it('When a response has a body, then the document shows an example of it (the document itself aside)', () => {
    const without = operations.flatMap(({ id, op }) =>
      Object.entries(op.responses as Json)
        .filter(([, response]) => response.content)
        .filter(
          ([, response]) => Object.keys(response.content['application/json'].examples ?? {}).length === 0,
        )
        .map(([status]) => `${id} ${status}`),
    );
    expect(without).toEqual(['getOpenApiDocument 200']);
  });

  it('When an error status names its codes, then there is an example of each code and of no other', () => {
    const mismatched = operations.flatMap(({ id, op }) =>
      Object.entries(op.responses as Json)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => {
          const named = ERROR_CODE_VALUES.filter((code) =>
            new RegExp(`\\b${code}\\b`).test(response.description),
          );
          const shown = Object.values(response.content['application/json'].examples as Json).map(
            (example) => (valueOf(example) as Json).error.code as string,
          );
          return { at: `${id} ${status}`, named: [...named].sort(), shown: [...new Set(shown)].sort() };
        })
        .filter(({ named, shown }) => JSON.stringify(named) !== JSON.stringify(shown)),
    );
    expect(mismatched).toEqual([]);
  });

  it('When an example is named after an error code, then its body carries that code', () => {
    const misnamed = operations.flatMap(({ id, op }) =>
      Object.entries(op.responses as Json)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(([status, response]) =>
          Object.entries(response.content['application/json'].examples as Json)
            .filter(([name, example]) => (valueOf(example) as Json).error.code !== name)
            .map(([name]) => `${id} ${status} ${name}`),
        ),
    );
    expect(misnamed).toEqual([]);
  });

  it('When the six event types, the two connection events and the test event are described, then each shows a delivery whose signature verifies with the secret the endpoint example shows', () => {
    const endpoint =
      doc.paths['/api/provider/v1/webhook-endpoint'].get.responses['200'].content['application/json'];
    const secret = String((Object.values(endpoint.examples as Json)[0] as Json).value.secret);
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const deliveries = Object.entries(doc.webhooks as Json).map(([type, webhook]) => {
      const headers = Object.fromEntries(
        (webhook.post.parameters as Json[]).map((p) => [p.name, String(p.examples[type].value)]),
      );
      const body = Object.values(webhook.post.requestBody.content['application/json'].examples as Json)[0]
        .value;
      const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${JSON.stringify(body)}`;
      const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
      return {
        type,
        bodyType: body.type,
        valid: validator.webhookEventBody(body).ok,
        verifies: headers['webhook-signature']!.split(' ').includes(expected),
        headersMatch: (webhook.post.parameters as Json[]).every((p) =>
          new RegExp(p.schema.pattern ?? '').test(String(p.examples[type].value)),
        ),
      };
    });
    expect(deliveries.map((d) => d.type).sort()).toEqual(
      [...EVENT_TYPES, ...CONNECTION_EVENT_TYPES, 'webhook.test'].sort(),
    );
    expect(EVENT_TYPES).toHaveLength(6);
    for (const d of deliveries) {
      expect(d).toEqual({ type: d.type, bodyType: d.type, valid: true, verifies: true, headersMatch: true });
    }
  });

  it('When a request example sends a date-time, then it is one the published pattern accepts, and one of them has no seconds', () => {
    const pattern = new RegExp(DATE_TIME_INPUT_PATTERN, 'u');
    const sent = operations
      .filter(
        ({ id }) => id === 'createReservation' || id === 'updateReservation' || id === 'recoverWebhooks',
      )
      .flatMap(({ op }) => Object.values(op.requestBody.content['application/json'].examples as Json))
      .flatMap((example) => JSON.stringify(example.value).match(/"\d{4}-\d\d-\d\dT[^"]*"/g) ?? [])
      .map((quoted) => JSON.parse(quoted) as string);
    expect(sent.length).toBeGreaterThan(5);
    expect(sent.filter((text) => !pattern.test(text))).toEqual([]);
    expect(sent.some((text) => /T\d\d:\d\d(?:Z|[+-])/.test(text))).toBe(true);
  });
});
