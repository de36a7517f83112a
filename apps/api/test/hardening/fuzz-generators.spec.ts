import fc from 'fast-check';
import {
  componentSchemas,
  createValidator,
  operations,
  QUERY_SCHEMAS,
  type ComponentName,
} from '@pis/contract';
import { MUTATION_KINDS, mutantOf, type MutationKind } from './support/fuzz-mutate';
import { asSchema, dateTimeText, validOf } from './support/fuzz-schema';
import { epochMicros, fuzz, renderMicros } from './support/fuzz-invariants';

/**
 * The fuzzers' own generators, without HTTP: values made from a schema are what the
 * contract accepts, and the mutations meant to break the contract do. The endpoint suites
 * lean on both (a wrong generator would make their oracles lie).
 */
const validator = createValidator();

/** Every body and query schema an operation of the contract takes. */
const REQUEST_SCHEMAS = [
  ...new Set([...operations.flatMap((op) => (op.body ? [op.body] : [])), ...QUERY_SCHEMAS]),
] as ComponentName[];

/** Mutations that always break the schema (unstorable text and duplicated items may not). */
const ALWAYS_INVALID: MutationKind[] = MUTATION_KINDS.filter(
  (k) => k !== 'unstorable-text' && k !== 'duplicate-item',
);

it('When the operations are read, then every request schema of the contract is fuzzed', () => {
  expect(REQUEST_SCHEMAS.sort()).toEqual(
    [
      'FloorPlanImportRequest',
      'LocationCreateRequest',
      'OrderCreateRequest',
      'OrderItemRequest',
      'OrderMoveRequest',
      'OrderDiscountRequest',
      'OrderPaymentRequest',
      'OrderServiceStatusRequest',
      'ReservationRequest',
      'TablePatchRequest',
      'WebhookEndpointRequest',
      'WebhookEndpointCreateRequest',
      'WebhookEndpointPatchRequest',
      'ReservationListQuery',
      'DeliveryListQuery',
      'OrderListQuery',
      'EventFeedQuery',
      'RecoverRequest',
      'ProviderCreateRequest',
      'ProviderKeyRequest',
      'PageQuery',
      'ConnectionListQuery',
    ].sort(),
  );
});

it.each(REQUEST_SCHEMAS)(
  'When values are generated from %s, then the contract validator accepts each',
  async (name) => {
    const schema = asSchema(componentSchemas[name]);
    await fuzz(
      validOf(schema),
      async (value) => {
        expect({ value, check: validator.check(name, value) }).toEqual({ value, check: { ok: true, value } });
      },
      60,
    );
  },
);

it.each(REQUEST_SCHEMAS)(
  'When %s is mutated to break it, then the contract validator refuses each mutant',
  async (name) => {
    const schema = asSchema(componentSchemas[name]);
    await fuzz(
      mutantOf(schema, validOf(schema), ALWAYS_INVALID),
      async ({ body, mutation }) => {
        expect({ mutation, ok: validator.check(name, body).ok }).toEqual({ mutation, ok: false });
      },
      60,
    );
  },
);

it('When a generated date-time is read independently, then it agrees with the wire rendering of the same instant', async () => {
  // The suites compare responses with `renderMicros(epochMicros(sent))`; check that reading on Z forms.
  await fuzz(
    fc.date({
      min: new Date('0001-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    }),
    async (date) => {
      const iso = date.toISOString();
      expect(renderMicros(epochMicros(iso))).toBe(iso);
    },
    100,
  );
  await fuzz(
    dateTimeText,
    async (text) => {
      expect(
        validator.check('ReservationRequest', {
          externalId: 'x',
          status: 'booked',
          covers: 1,
          startsAt: text,
          updatedAt: text,
        }).ok,
      ).toBe(true);
    },
    100,
  );
});
