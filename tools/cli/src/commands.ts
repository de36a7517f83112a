import {
  createLocation,
  finishOrderCommand,
  getWorkingPlan,
  issueApiKey,
  listOrders,
  moveOrderCommand,
  openWalkInOrder,
  publishFloorPlan,
  revokeApiKey,
  addOrderItem,
  type Deps,
  type Outcome,
} from '@pis/domain';
import {
  toApiKeyResponse,
  toLocationCommand,
  toLocationResponse,
  toOrderItem,
  toOrderListResponse,
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
}

export interface Command {
  usage: string;
  flags: string[];
  run(ctx: CliContext, flags: Flags): Promise<Outcome<unknown>>;
}

/** The operator's commands: the backoffice operations of decisions section 8, over the same use cases. */
export const COMMANDS: Record<string, Command> = {
  'location create': {
    usage: '--name <name> --brand <a-z0-9> [--currency EUR]',
    flags: ['name', 'brand', 'currency'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(
          validator.locationCreateRequest(defined({ name: f.name, brand: f.brand, currency: f.currency })),
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
    usage: '--location <id> --order <id> --label <text> --amount <minor units> [--quantity <n>]',
    flags: ['location', 'order', 'label', 'amount', 'quantity'],
    run: async ({ deps, validator }, f) =>
      mapped(
        checked(
          validator.orderItemRequest(
            defined({ label: f.label, amountMinor: int(f.amount), quantity: int(f.quantity) }),
          ),
        ),
        async (b) =>
          mapOk(
            await addOrderItem(deps, { locationId: f.location!, orderId: f.order!, ...toOrderItem(b) }),
            toOrderResponse,
          ),
      ),
  },
  'orders move': {
    usage: '--location <id> --order <id> --tables <tableId,...>',
    flags: ['location', 'order', 'tables'],
    run: async ({ deps, validator }, f) =>
      mapped(checked(validator.orderMoveRequest({ tableIds: list(f.tables) })), async (b) =>
        mapOk(
          await moveOrderCommand(deps, {
            locationId: f.location!,
            orderId: f.order!,
            tableIds: [...b.tableIds],
          }),
          toOrderResponse,
        ),
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
      mapOk(
        await finishOrderCommand(deps, { locationId: f.location!, orderId: f.order!, how }),
        toOrderResponse,
      ),
  };
}

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
