import { Instant, type StoredEvent, type WebhookDelivery } from '@pis/domain';
import { createValidator } from '../validation/validator';
import {
  toDeliveryListResponse,
  toDeliveryResponse,
  toWebhookEndpointCommand,
  toWebhookEventBody,
} from './webhook.mapper';

const validator = createValidator();
const occurredAt = Instant.parse('2026-11-21T19:00:00.123456Z')!;
const stored = (event: Pick<StoredEvent, 'type' | 'data'>, sequence: number): StoredEvent =>
  ({ ...event, occurredAt, id: `event-${sequence}`, locationId: 'loc-1', sequence }) as StoredEvent;

const events: StoredEvent[] = [
  stored(
    {
      type: 'floorplan.published',
      data: {
        version: 2,
        publishedAt: occurredAt.toIso(),
        changes: { added: [], deactivated: [], reactivated: [], relabelled: [], updated: [] },
      },
    },
    1,
  ),
  stored(
    {
      type: 'table.occupied',
      data: {
        tableId: 't-1',
        orderId: 'o-1',
        reservationExternalId: 'ot-1',
        covers: 2,
        occurredAt: occurredAt.toIso(),
      },
    },
    2,
  ),
  stored(
    {
      type: 'table.freed',
      data: {
        tableId: 't-1',
        orderId: 'o-1',
        reservationExternalId: null,
        reason: 'voided',
        occurredAt: occurredAt.toIso(),
      },
    },
    3,
  ),
  stored(
    {
      type: 'table.spend_updated',
      data: {
        tableIds: ['t-1', 't-2'],
        orderId: 'o-1',
        reservationExternalId: null,
        spendMinor: 6400,
        currency: 'EUR',
        covers: 3,
        occurredAt: occurredAt.toIso(),
        totals: {
          subtotalMinor: 7000,
          discountMinor: 600,
          taxMinor: 581,
          tipMinor: 300,
          paidMinor: 7000,
          balanceMinor: -600,
        },
      },
    },
    4,
  ),
  stored(
    {
      type: 'table.status_changed',
      data: {
        tableIds: ['t-1', 't-2'],
        orderId: 'o-1',
        reservationExternalId: 'r-1',
        serviceStatus: 'bill_requested',
        occurredAt: occurredAt.toIso(),
      },
    },
    5,
  ),
  stored(
    {
      type: 'order.closed',
      data: {
        orderId: 'o-1',
        reservationExternalId: null,
        tableIds: ['t-1', 't-2'],
        covers: 3,
        currency: 'EUR',
        openedAt: '2026-11-21T18:00:00.000Z',
        closedAt: occurredAt.toIso(),
        check: {
          items: [
            {
              id: 'i-1',
              label: 'Menu',
              quantity: 2,
              amountMinor: 3500,
              taxRateBps: 1000,
              course: 'main',
              voided: false,
            },
          ],
          discounts: [{ id: 'd-1', label: 'Regulars', amountMinor: 600 }],
          payments: [
            { id: 'p-1', amountMinor: 7000, tipMinor: 300, tender: 'card', paidAt: occurredAt.toIso() },
          ],
          subtotalMinor: 7000,
          discountMinor: 600,
          taxMinor: 581,
          totalMinor: 6400,
          tipMinor: 300,
          paidMinor: 7000,
          balanceMinor: -600,
        },
      },
    },
    6,
  ),
];

describe('toWebhookEventBody', () => {
  it.each(events.map((e) => ({ type: e.type, event: e })))(
    'When a stored $type event is rendered, then it is {type, timestamp, data + locationId + locationEventSequence} and validates',
    ({ event }) => {
      const body = toWebhookEventBody(event);
      expect(body).toEqual({
        type: event.type,
        timestamp: '2026-11-21T19:00:00.123Z',
        data: { ...event.data, locationId: event.locationId, locationEventSequence: event.sequence },
      });
      expect(validator.webhookEventBody(body)).toEqual({ ok: true, value: body });
    },
  );

  it('When an event body lacks locationEventSequence, then the event schema refuses it', () => {
    const body = toWebhookEventBody(events[1]!);
    const { locationEventSequence: _, ...data } = body.data;
    expect(validator.webhookEventBody({ ...body, data })).toEqual({
      ok: false,
      details: [{ path: '/data/locationEventSequence', message: 'is required' }],
    });
  });

  it('When an event body has an unknown type, then it is refused at /type', () => {
    expect(
      validator.webhookEventBody({ type: 'table.updated', timestamp: occurredAt.toIso(), data: {} }),
    ).toMatchObject({
      ok: false,
      details: [{ path: '/type' }],
    });
  });
});

describe('Deliveries and endpoint commands', () => {
  const delivery: WebhookDelivery = {
    id: 'd-1',
    locationId: 'loc-1',
    endpointId: 'e-1',
    eventId: 'event-2',
    eventType: 'table.occupied',
    sequence: 2,
    status: 'pending',
    attempts: [
      { attemptedAt: occurredAt, responseStatus: 503, durationMs: 120, error: 'the receiver answered 503' },
      {
        attemptedAt: occurredAt,
        responseStatus: null,
        durationMs: 10_000,
        error: 'timed out after 10000 ms',
      },
    ],
    nextAttemptAt: occurredAt.plusMicros(300_000_000n),
    createdAt: occurredAt,
    updatedAt: occurredAt,
  };

  it('When a delivery is rendered, then it validates, names its endpoint and leaves out the location id', () => {
    const response = toDeliveryResponse(delivery);
    expect(validator.check('Delivery', response)).toEqual({ ok: true, value: response });
    expect(response).toMatchObject({ locationEventSequence: 2, nextAttemptAt: '2026-11-21T19:05:00.123Z' });
    expect(response).not.toHaveProperty('locationId');
    expect(response.endpointId).toBe(delivery.endpointId);
  });

  it('When a page of deliveries has a next position, then nextCursor is set and the list validates', () => {
    const response = toDeliveryListResponse({
      items: [delivery],
      next: { createdAt: occurredAt, id: 'd-1' },
    });
    expect(validator.check('DeliveryListResponse', response)).toMatchObject({ ok: true });
    expect(response.nextCursor).toEqual(expect.any(String));
  });

  it.each([
    [{ url: 'https://p.example/h' }, { url: 'https://p.example/h', events: null }],
    [
      { url: 'https://p.example/h', events: ['table.freed' as const] },
      { url: 'https://p.example/h', events: ['table.freed'] },
    ],
  ])('When the endpoint body is %j, then the command is %j (null: every event)', (body, command) => {
    expect(toWebhookEndpointCommand(body)).toEqual(command);
  });
});
