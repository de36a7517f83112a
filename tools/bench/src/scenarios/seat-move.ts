import { BACKOFFICE_TOKEN } from '../env';
import { runLoad } from '../load';
import { sampled, type ScenarioContext, type ScenarioResult } from '../scenario';
import { fullBody, type BenchLocation } from '../seed';

interface Cycle {
  externalId?: string;
  orderId?: string;
  stamp?: number;
}

/**
 * Each connection repeats the evening of one party: POST a reservation seated at a random
 * table (opens a till order), PUT it moved to another random table (moves the order), and
 * the till closes the order (frees the table). Across 200 tables, 32 connections collide
 * now and then: 409 `table_occupied` is a scenario outcome, not an error; a cycle whose seat
 * was refused starts over.
 */
export async function seatMove(ctx: ScenarioContext, location: BenchLocation): Promise<ScenarioResult> {
  const tables = location.tableIds;
  const pick = () => tables[Math.floor(Math.random() * tables.length)]!;
  let serial = 0;
  let stamp = Date.parse('2026-03-01T00:00:00Z');
  const outcomes = { seated: 0, moved: 0, closed: 0, occupied: 0 };
  const provider = { authorization: `Bearer ${location.key}`, 'content-type': 'application/json' };
  const operator = { authorization: `Bearer ${BACKOFFICE_TOKEN}` };
  const ops = `/api/backoffice/v1/locations/${location.locationId}`;

  const { value: load, resources } = await sampled(ctx.services, () =>
    runLoad({
      url: ctx.services.baseUrl,
      connections: ctx.connections,
      durationS: ctx.durationS,
      requests: [
        {
          method: 'POST',
          path: '/api/provider/v1/reservations',
          setupRequest: (req, context: Cycle) => {
            context.externalId = `sm-${serial++}`;
            context.stamp = stamp++;
            context.orderId = undefined;
            const body = fullBody(context.externalId, new Date(context.stamp).toISOString(), {
              status: 'seated',
              tableIds: [pick()],
            });
            return { ...req, headers: provider, body: JSON.stringify(body) };
          },
          onResponse: (status, body, context: Cycle) => {
            if (status === 201) {
              outcomes.seated++;
              context.orderId = (
                JSON.parse(body) as { reservation: { linkedOrderId: string } }
              ).reservation.linkedOrderId;
            } else if (status === 409) outcomes.occupied++;
          },
        },
        {
          method: 'PUT',
          // A refused seat restarts the cycle (autocannon starts over on a falsy request).
          setupRequest: (req, context: Cycle) => {
            if (!context.orderId) return undefined as unknown as typeof req;
            const body = fullBody(context.externalId!, new Date(context.stamp! + 1).toISOString(), {
              status: 'seated',
              tableIds: [pick()],
            });
            return {
              ...req,
              path: `/api/provider/v1/reservations/${context.externalId}`,
              headers: provider,
              body: JSON.stringify(body),
            };
          },
          onResponse: (status) => {
            if (status === 200) outcomes.moved++;
            else if (status === 409) outcomes.occupied++;
          },
        },
        {
          method: 'POST',
          setupRequest: (req, context: Cycle) => ({
            ...req,
            path: `${ops}/orders/${context.orderId}/close`,
            headers: operator,
          }),
          onResponse: (status) => {
            if (status === 200) outcomes.closed++;
          },
        },
      ],
      expected: [200, 201, 409],
    }),
  );
  return {
    name: 'seat-move',
    description:
      'seat (POST seated), move (PUT new table) and close (till) across 200 tables, 32 connections',
    load,
    resources,
    metrics: { ...outcomes, tables: tables.length },
    timeline: load.timeline,
    notes: [
      '409 table_occupied counts as an outcome; every 201/200 opened or moved an order and wrote outbox events',
    ],
  };
}
