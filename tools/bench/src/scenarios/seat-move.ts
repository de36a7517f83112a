import type autocannon from 'autocannon';
import { BACKOFFICE, BACKOFFICE_TOKEN, PROVIDER } from '../api-client';
import { bodyTemplate, iso } from '../fixtures';
import { runClosedLoop } from '../load/closed-loop';
import { classify } from '../load/outcomes';
import { measure, type ScenarioContext, type ScenarioResult } from '../scenario';
import { seedReservations, type BenchLocation } from '../seed';

export const SEAT_TABLES = 200;
const RESERVATIONS = 150_000;
const PREFIX = 'sm';
const SEEDED_UPDATED_AT = '2026-01-01T00:00:00.000Z';
const FIRST_WRITE_MS = Date.parse(SEEDED_UPDATED_AT) + 86_400_000;

interface Cycle {
  externalId?: string;
  orderId?: string;
}

/**
 * Each connection repeats a party's evening on a floor of 200 tables: PUT its (seeded,
 * confirmed) reservation `seated` at a random table (opens a till order), PUT it `seated` at
 * another random table (moves the order), and the till closes the order (frees the table).
 * With 32 connections two parties now and then pick the same table: 409 `table_occupied` is
 * an outcome of the scenario, counted apart from errors; a refused seat starts a new cycle, a
 * refused move leaves the order where it was. Every seat, move and close writes outbox events
 * (one location, so they take turns on its event sequence).
 */
export class SeatMove {
  private reservation = 0;
  private stamp = 0;
  private readonly counts = { seated: 0, moved: 0, closed: 0, refusedSeat: 0, refusedMove: 0 };

  constructor(private readonly location: BenchLocation) {}

  static async seed(databaseUrl: string, location: BenchLocation): Promise<void> {
    await seedReservations(databaseUrl, {
      locationId: location.locationId,
      prefix: PREFIX,
      count: RESERVATIONS,
      firstStartMs: Date.parse('2026-11-21T18:00:00Z'),
      spacingS: 1,
      updatedAt: SEEDED_UPDATED_AT,
    });
  }

  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const load = (durationS: number) =>
      runClosedLoop({
        url: ctx.services.baseUrl,
        connections: ctx.connections,
        durationS,
        requests: this.requests(),
        expected: ['200 applied', '200', '409 table_occupied'],
      });
    if (ctx.warmupS > 0) await load(ctx.warmupS);
    const before = { ...this.counts };
    const run = await measure(ctx, () => load(ctx.durationS));
    const delta = Object.fromEntries(
      Object.entries(this.counts).map(([k, v]) => [k, v - before[k as keyof typeof before]]),
    );
    return {
      name: 'seat-move',
      apiWorkers: ctx.services.apiWorkers,
      description: `seat (PUT seated), move (PUT seated at another table) and till close across ${SEAT_TABLES} tables, ${ctx.connections} connections`,
      load: run.value,
      usage: run.usage,
      waits: run.waits,
      metrics: {
        'seats (orders opened)': delta.seated!,
        'moves (orders moved)': delta.moved!,
        'closes (tables freed)': delta.closed!,
        'seats refused (409 table_occupied)': delta.refusedSeat!,
        'moves refused (409 table_occupied)': delta.refusedMove!,
        'reservations used so far': `${this.reservation.toLocaleString('en')} of ${RESERVATIONS.toLocaleString('en')}`,
      },
      timeline: run.value.timeline,
      notes: [
        'Throughput counts every request (seat, move and close); 409 table_occupied is an expected outcome, not an error.',
      ],
      baselines: { pg: 'baseline-bare-pg-upsert', express: 'baseline-bare-express-put' },
    };
  }

  private requests(): autocannon.Request[] {
    const tables = this.location.tableIds;
    const pick = () => tables[Math.floor(Math.random() * tables.length)]!;
    const body = bodyTemplateFor(pick);
    const provider = { authorization: `Bearer ${this.location.key}`, 'content-type': 'application/json' };
    const put = (externalId: string) => ({
      method: 'PUT' as const,
      path: `${PROVIDER}/reservations/${externalId}`,
      headers: provider,
      body: body(externalId, iso(FIRST_WRITE_MS + this.stamp++)),
    });
    const orderOf = (text: string) =>
      (JSON.parse(text) as { reservation: { linkedOrderId: string | null } }).reservation.linkedOrderId;
    return [
      {
        setupRequest: (req, context: Cycle) => {
          // Past the seeded ones, reservations are reused: a reused one links its old (closed)
          // order, so its seat opens nothing; the metrics show how many were used.
          context.externalId = `${PREFIX}-${this.reservation++ % RESERVATIONS}`;
          context.orderId = undefined;
          return { ...req, ...put(context.externalId) };
        },
        onResponse: (status, text, context: Cycle) => {
          if (classify(status, text) === '200 applied') {
            this.counts.seated++;
            context.orderId = orderOf(text) ?? undefined;
          } else if (status === 409) this.counts.refusedSeat++;
        },
      },
      {
        // A refused seat starts the cycle over: autocannon goes back to the first request on a falsy one.
        setupRequest: (req, context: Cycle) =>
          context.orderId ? { ...req, ...put(context.externalId!) } : (undefined as unknown as typeof req),
        onResponse: (status, text) => {
          if (classify(status, text) === '200 applied') this.counts.moved++;
          else if (status === 409) this.counts.refusedMove++;
        },
      },
      {
        setupRequest: (req, context: Cycle) => ({
          ...req,
          method: 'POST',
          path: `${BACKOFFICE}/locations/${this.location.locationId}/orders/${context.orderId}/close`,
          headers: { authorization: `Bearer ${BACKOFFICE_TOKEN}` },
          body: undefined,
        }),
        onResponse: (status) => {
          if (status === 200) this.counts.closed++;
        },
      },
    ];
  }
}

/** A seated body at a table picked per request (the template fixes everything else). */
function bodyTemplateFor(pick: () => string): (externalId: string, updatedAt: string) => string {
  const marker = '00000000-0000-4000-8000-00000000fade';
  const template = bodyTemplate({ status: 'seated', tableIds: [marker] });
  return (externalId, updatedAt) => template(externalId, updatedAt).replace(marker, pick());
}
