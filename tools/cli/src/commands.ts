import {
  createLocation,
  createProvider,
  getProvider,
  grantConnection,
  issueProviderKey,
  listLocationConnections,
  listLocations,
  listProviderConnections,
  listProviders,
  revokeConnection,
  revokeProviderKey,
  finishOrderAs,
  getWorkingPlan,
  issueApiKey,
  listOrders,
  moveOrderToTables,
  openWalkInOrder,
  publishFloorPlan,
  readEventFeed,
  revokeApiKey,
  addOrderDiscount,
  addOrderItem,
  addOrderPayment,
  setOrderServiceStatus,
  voidOrderItem,
  type Deps,
  type Outcome,
} from '@pis/domain';
import {
  toApiKeyResponse,
  toConnectionListCommand,
  toConnectionListResponse,
  toConnectionResponse,
  toLocationConnectionListResponse,
  toLocationListCommand,
  toLocationListResponse,
  toProviderCommand,
  toProviderKeyMode,
  toProviderKeyResponse,
  toProviderListCommand,
  toProviderListResponse,
  toProviderResponse,
  toEventFeedCommand,
  toEventFeedResponse,
  toLocationCommand,
  toLocationResponse,
  toOrderDiscount,
  toOrderItem,
  toOrderListResponse,
  toOrderPayment,
  toOrderResponse,
  toPublishResponse,
  toWorkingPlanResponse,
  validationFailure,
  type Checked,
  type ContractValidator,
} from '@pis/contract';

export type Flags = Record<string, string | undefined>;

export interface CliContext {
  deps: Deps;
  validator: ContractValidator;
  keyRevoked(keyId: string): Promise<void>;
  connectionRevoked(providerId: string, locationId: string): Promise<void>;
}

export interface Command {
  usage: string;
  flags: string[];
  /** Flags without a value (`--sandbox`); they read "true" when given. */
  switches?: string[];
  run(ctx: CliContext, flags: Flags): Promise<Outcome<unknown>>;
}

/** The operator's commands: the operations of docs/reference/backoffice-api.md, over the same use cases. */
export const COMMANDS: Record<string, Command> = {
  'location create': {
    usage: '--name <name> --brand <a-z0-9> [--currency EUR] [--sandbox]',
    flags: ['name', 'brand', 'currency'],
    switches: ['sandbox'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(
          validator.locationCreateRequest(
            defined({
              name: f.name,
              brand: f.brand,
              currency: f.currency,
              sandbox: f.sandbox === undefined ? undefined : f.sandbox === 'true',
            }),
          ),
        ),
        async (body) => mapOk(await createLocation(deps, toLocationCommand(body)), toLocationResponse),
      ),
  },
  'key issue': {
    usage: '--location <id>',
    flags: ['location'],
    run: async ({ deps }, f) => mapOk(await issueApiKey(deps, { locationId: f.location! }), toApiKeyResponse),
  },
  'key revoke': {
    usage: '--location <id> --key <keyId>',
    flags: ['location', 'key'],
    run: async ({ deps, keyRevoked }, f) => {
      const revoked = await revokeApiKey(deps, { locationId: f.location!, keyId: f.key! });
      if (revoked.ok) await keyRevoked(revoked.value.keyId);
      return revoked;
    },
  },
  'location list': {
    usage: '[--limit <1-500, default 100>] [--cursor <nextCursor>]',
    flags: ['limit', 'cursor'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.pageQuery(defined({ limit: int(f.limit), cursor: f.cursor }))), async (q) =>
        mapped(checked(toLocationListCommand(q)), async (page) =>
          mapOk(await listLocations(deps, page), toLocationListResponse),
        ),
      ),
  },
  'provider create': {
    usage: '--name <name> --brand <a-z0-9>',
    flags: ['name', 'brand'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.providerCreateRequest(defined({ name: f.name, brand: f.brand }))), async (b) =>
        mapOk(await createProvider(deps, toProviderCommand(b)), toProviderResponse),
      ),
  },
  'provider list': {
    usage: '[--limit <1-500, default 100>] [--cursor <nextCursor>]',
    flags: ['limit', 'cursor'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.pageQuery(defined({ limit: int(f.limit), cursor: f.cursor }))), async (q) =>
        mapped(checked(toProviderListCommand(q)), async (page) =>
          mapOk(await listProviders(deps, page), toProviderListResponse),
        ),
      ),
  },
  'provider key': {
    usage: '--provider <id> [--mode live|test]',
    flags: ['provider', 'mode'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.providerKeyRequest(defined({ mode: f.mode }))), async (b) =>
        mapOk(
          await issueProviderKey(deps, { providerId: f.provider!, mode: toProviderKeyMode(b) }),
          toProviderKeyResponse,
        ),
      ),
  },
  'provider connections': {
    usage: '--provider <id> [--limit <1-100, default 100>] [--cursor <nextCursor>]',
    flags: ['provider', 'limit', 'cursor'],
    // The venues the provider's key reaches, as GET /api/provider/v1/connections lists them.
    run: async ({ deps, validator }, f) => {
      const provider = await getProvider(deps, { providerId: f.provider! });
      if (!provider.ok) return provider;
      return mapped(
        checked(validator.connectionListQuery(defined({ limit: int(f.limit), cursor: f.cursor }))),
        async (q) =>
          mapped(checked(toConnectionListCommand(q)), async (page) =>
            mapOk(
              await listProviderConnections(deps, { providerId: f.provider!, ...page }),
              toConnectionListResponse,
            ),
          ),
      );
    },
  },
  'provider revoke-key': {
    usage: '--provider <id> --key <keyId>',
    flags: ['provider', 'key'],
    run: async ({ deps, keyRevoked }, f) => {
      const revoked = await revokeProviderKey(deps, { providerId: f.provider!, keyId: f.key! });
      if (revoked.ok) await keyRevoked(revoked.value.keyId);
      return revoked;
    },
  },
  'connection grant': {
    usage: '--location <id> --provider <id>',
    flags: ['location', 'provider'],
    run: async ({ deps }, f) =>
      mapOk(await grantConnection(deps, { locationId: f.location!, providerId: f.provider! }), (granted) =>
        toConnectionResponse(granted.connection),
      ),
  },
  'connection revoke': {
    usage: '--location <id> --provider <id>',
    flags: ['location', 'provider'],
    run: async ({ deps, connectionRevoked }, f) => {
      const revoked = await revokeConnection(deps, { locationId: f.location!, providerId: f.provider! });
      if (revoked.ok) await connectionRevoked(f.provider!, f.location!);
      return revoked.ok ? { ok: true, value: undefined } : revoked;
    },
  },
  'connection list': {
    usage: '--location <id>',
    flags: ['location'],
    run: async ({ deps }, f) =>
      mapOk(
        await listLocationConnections(deps, { locationId: f.location! }),
        toLocationConnectionListResponse,
      ),
  },
  'floorplan show': {
    usage: '--location <id>',
    flags: ['location'],
    run: async ({ deps }, f) =>
      mapOk(await getWorkingPlan(deps, { locationId: f.location! }), toWorkingPlanResponse),
  },
  'floorplan publish': {
    usage: '--location <id>',
    flags: ['location'],
    run: async ({ deps }, f) =>
      mapOk(await publishFloorPlan(deps, { locationId: f.location! }), toPublishResponse),
  },
  'orders list': {
    usage: '--location <id> [--status open|closed|voided]',
    flags: ['location', 'status'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.orderListQuery(defined({ status: f.status }))), async (query) =>
        mapOk(
          await listOrders(deps, { locationId: f.location!, status: query.status ?? null }),
          toOrderListResponse,
        ),
      ),
  },
  'orders open': {
    usage: '--location <id> --tables <tableId,...> --covers <n>',
    flags: ['location', 'tables', 'covers'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(validator.orderCreateRequest({ tableIds: list(f.tables), covers: int(f.covers) })),
        async (b) =>
          mapOk(
            await openWalkInOrder(deps, {
              locationId: f.location!,
              tableIds: [...b.tableIds],
              covers: b.covers,
            }),
            toOrderResponse,
          ),
      ),
  },
  'orders add-item': {
    usage:
      '--location <id> --order <id> --label <text> --amount <minor units, tax included> [--quantity <n>] [--tax-rate <bps>] [--course starter|main|dessert|drink|other]',
    flags: ['location', 'order', 'label', 'amount', 'quantity', 'tax-rate', 'course'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(
          validator.orderItemRequest(
            defined({
              label: f.label,
              amountMinor: int(f.amount),
              quantity: int(f.quantity),
              taxRateBps: int(f['tax-rate']),
              course: f.course,
            }),
          ),
        ),
        async (b) => mapOk(await addOrderItem(deps, { ...orderOf(f), ...toOrderItem(b) }), toOrderResponse),
      ),
  },
  'orders void-item': {
    usage: '--location <id> --order <id> --item <itemId>',
    flags: ['location', 'order', 'item'],
    run: async ({ deps }, f) =>
      mapOk(await voidOrderItem(deps, { ...orderOf(f), itemId: f.item! }), toOrderResponse),
  },
  'orders add-discount': {
    usage: '--location <id> --order <id> --label <text> --amount <minor units>',
    flags: ['location', 'order', 'label', 'amount'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(validator.orderDiscountRequest(defined({ label: f.label, amountMinor: int(f.amount) }))),
        async (b) =>
          mapOk(await addOrderDiscount(deps, { ...orderOf(f), ...toOrderDiscount(b) }), toOrderResponse),
      ),
  },
  'orders add-payment': {
    usage:
      '--location <id> --order <id> --amount <minor units> --tender card|cash|voucher|deposit|other [--tip <minor units>]',
    flags: ['location', 'order', 'amount', 'tender', 'tip'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(
          validator.orderPaymentRequest(
            defined({ amountMinor: int(f.amount), tipMinor: int(f.tip), tender: f.tender }),
          ),
        ),
        async (b) =>
          mapOk(await addOrderPayment(deps, { ...orderOf(f), ...toOrderPayment(b) }), toOrderResponse),
      ),
  },
  'orders service-status': {
    usage: '--location <id> --order <id> --status seated|starters|mains|desserts|bill_requested|paid',
    flags: ['location', 'order', 'status'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.orderServiceStatusRequest(defined({ status: f.status }))), async (b) =>
        mapOk(await setOrderServiceStatus(deps, { ...orderOf(f), status: b.status }), toOrderResponse),
      ),
  },
  'orders move': {
    usage: '--location <id> --order <id> --tables <tableId,...>',
    flags: ['location', 'order', 'tables'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.orderMoveRequest({ tableIds: list(f.tables) })), async (b) =>
        mapOk(
          await moveOrderToTables(deps, {
            locationId: f.location!,
            orderId: f.order!,
            tableIds: [...b.tableIds],
          }),
          toOrderResponse,
        ),
      ),
  },
  'events tail': {
    usage:
      '--location <id> [--after <sequence>] [--limit <1-1000, default 20>] [--types <type,...>] (without --after: the newest events)',
    flags: ['location', 'after', 'limit', 'types'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(
          validator.eventFeedQuery(defined({ after: f.after, limit: f.limit ?? '20', types: f.types })),
        ),
        async (query) => {
          const command = toEventFeedCommand(query);
          const after =
            f.after === undefined ? await newest(deps, f.location!, command.limit) : command.after;
          return mapOk(
            await readEventFeed(deps, { locationId: f.location!, ...command, after }),
            toEventFeedResponse,
          );
        },
      ),
  },
  'orders close': finishCommand('closed'),
  'orders void': finishCommand('voided'),
};

function finishCommand(how: 'closed' | 'voided'): Command {
  return {
    usage: '--location <id> --order <id>',
    flags: ['location', 'order'],
    run: async ({ deps }, f) =>
      mapOk(await finishOrderAs(deps, { locationId: f.location!, orderId: f.order!, how }), toOrderResponse),
  };
}

/** Where the last `limit` events of the location start (never before what retention holds). */
async function newest(deps: Deps, locationId: string, limit: number): Promise<number> {
  const { asOfSequence } = await deps.queries.tableState.read(locationId);
  const { oldestRetainedSequence } = await deps.queries.events.page({
    locationId,
    after: 0,
    limit: 1,
    types: null,
  });
  return Math.max(oldestRetainedSequence - 1, asOfSequence - limit);
}

const orderOf = (f: Flags) => ({ locationId: f.location!, orderId: f.order! });

const checked = <T>(c: Checked<T>): Outcome<T> =>
  c.ok ? { ok: true, value: c.value } : validationFailure(c.details);

async function mapped<T>(
  input: Outcome<T>,
  then: (value: T) => Promise<Outcome<unknown>>,
): Promise<Outcome<unknown>> {
  return input.ok ? then(input.value) : input;
}

function mapOk<T, R>(outcome: Outcome<T>, map: (value: T) => R): Outcome<R> {
  return outcome.ok ? { ok: true, value: map(outcome.value) } : outcome;
}

/** Flags that were not given are left out, so the schema reports them as missing. */
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const list = (s: string | undefined) =>
  s === undefined
    ? undefined
    : s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
/** Whole numbers become numbers; anything else stays a string and fails the schema's integer type. */
const int = (s: string | undefined) => (s !== undefined && /^-?\d+$/.test(s) ? Number(s) : s);
