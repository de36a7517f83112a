import type autocannon from 'autocannon';
import { BACKOFFICE, BACKOFFICE_TOKEN, call } from '../api-client';
import { runClosedLoop } from '../load/closed-loop';
import { measure, type ScenarioContext, type ScenarioResult } from '../scenario';
import type { BenchLocation } from '../seed';

export const TILL_TABLES = 200;

interface CheckLines {
  id: string;
  check: { items: unknown[]; payments: unknown[]; totalMinor: number; paidMinor: number };
}

interface Pick {
  orderId?: string;
}

/**
 * The till at work on a full floor: one open walk-in order per table (200), and each
 * connection adds, to an order picked at random, an item (tax rate and course set, quantity
 * 1-3) or a payment with a tip, half and half. Every write rewrites the order's check (its
 * lines are jsonb on the order row, decision 0100) and appends a `table.spend_updated` with
 * the totals to the outbox, so the checks grow through the run (their sizes are reported).
 * Afterwards every check must hold exactly the lines the API answered 200 for.
 */
export class Till {
  private orders: string[] = [];
  private readonly accepted = new Map<string, number>();

  constructor(private readonly location: BenchLocation) {}

  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    await this.openFreshOrders(ctx);
    const load = (durationS: number) =>
      runClosedLoop({
        url: ctx.services.baseUrl,
        connections: ctx.connections,
        durationS,
        requests: this.requests(),
        expected: ['200'],
      });
    if (ctx.warmupS > 0) await load(ctx.warmupS);
    const run = await measure(ctx, () => load(ctx.durationS));
    const sizes = await this.verify(ctx);
    return {
      name: 'till',
      apiWorkers: ctx.services.apiWorkers,
      description: `item or payment (half each) on one of ${TILL_TABLES} open orders picked at random, ${ctx.connections} connections`,
      load: run.value,
      usage: run.usage,
      waits: run.waits,
      metrics: {
        'open orders': this.orders.length,
        'lines per check at the end (mean)': sizes.mean,
        'lines per check at the end (max)': sizes.max,
        'writes answered 200 but missing from a check': sizes.lost,
      },
      timeline: run.value.timeline,
      notes: [
        'Each write locks its order row, rewrites the check and bumps the location event sequence (one location): writes to one location take turns on that row.',
      ],
      baselines: { pg: 'baseline-bare-pg-upsert', express: 'baseline-bare-express-put' },
    };
  }

  /** Closes what an earlier pass left open and opens one walk-in per table (unmeasured). */
  private async openFreshOrders(ctx: ScenarioContext): Promise<void> {
    const ops = `${BACKOFFICE}/locations/${this.location.locationId}`;
    const base = ctx.services.baseUrl;
    const open = await call<{ orders: { id: string }[] }>(
      base,
      BACKOFFICE_TOKEN,
      'GET',
      `${ops}/orders?status=open`,
    );
    for (const order of open.orders)
      await call(base, BACKOFFICE_TOKEN, 'POST', `${ops}/orders/${order.id}/close`);
    this.orders = [];
    this.accepted.clear();
    for (const tableId of this.location.tableIds) {
      const order = await call<{ id: string }>(base, BACKOFFICE_TOKEN, 'POST', `${ops}/orders`, {
        tableIds: [tableId],
        covers: 2,
      });
      this.orders.push(order.id);
      this.accepted.set(order.id, 0);
    }
  }

  private requests(): autocannon.Request[] {
    const ops = `${BACKOFFICE}/locations/${this.location.locationId}/orders`;
    const headers = { authorization: `Bearer ${BACKOFFICE_TOKEN}`, 'content-type': 'application/json' };
    let n = 0;
    return [
      {
        setupRequest: (req, context: Pick) => {
          n += 1;
          const orderId = this.orders[Math.floor(Math.random() * this.orders.length)]!;
          context.orderId = orderId;
          const item = n % 2 === 0;
          const body = item
            ? {
                label: `Dish ${n % 40}`,
                amountMinor: 1200 + (n % 7) * 100,
                quantity: 1 + (n % 3),
                taxRateBps: 1000,
                course: 'main',
              }
            : { amountMinor: 500, tipMinor: 50, tender: 'card' };
          return {
            ...req,
            method: 'POST',
            path: `${ops}/${orderId}/${item ? 'items' : 'payments'}`,
            headers,
            body: JSON.stringify(body),
          };
        },
        onResponse: (status, _body, context: Pick) => {
          if (status === 200 && context.orderId) {
            this.accepted.set(context.orderId, (this.accepted.get(context.orderId) ?? 0) + 1);
          }
        },
      },
    ];
  }

  /** Reads every check back: the lines it holds against the writes answered 200 (warm-up included). */
  private async verify(ctx: ScenarioContext): Promise<{ mean: number; max: number; lost: number }> {
    const open = await call<{ orders: CheckLines[] }>(
      ctx.services.baseUrl,
      BACKOFFICE_TOKEN,
      'GET',
      `${BACKOFFICE}/locations/${this.location.locationId}/orders?status=open`,
    );
    const lines = open.orders.map((o) => o.check.items.length + o.check.payments.length);
    const lost = open.orders.reduce(
      (sum, o) =>
        sum + Math.max(0, (this.accepted.get(o.id) ?? 0) - (o.check.items.length + o.check.payments.length)),
      0,
    );
    const total = lines.reduce((a, b) => a + b, 0);
    return {
      mean: lines.length === 0 ? 0 : Math.round((total / lines.length) * 10) / 10,
      max: Math.max(0, ...lines),
      lost,
    };
  }
}
