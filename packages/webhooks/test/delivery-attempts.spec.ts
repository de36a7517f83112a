import { Instant, type StoredEvent, type WebhookEndpoint } from '@pis/domain';
import { type ClaimedDelivery } from '@pis/ports';
import { DeliveryAttempts } from '../src/delivery/delivery-attempts';
import { EndpointCache } from '../src/delivery/endpoint-cache';
import type { SendRequest } from '../src/delivery/http-sender';
import { testLogger } from './support/test-logger';

const SECRET = `whsec_${Buffer.from('s'.repeat(32)).toString('base64')}`;
const created = Instant.fromEpochMillis(Date.now() - 60_000);

const endpoint = (disabled: boolean): WebhookEndpoint => ({
  id: 'endpoint-1',
  locationId: 'location-1',
  providerId: 'location-1',
  description: null,
  singleton: true,
  url: 'https://receiver.example/hooks',
  events: ['table.occupied'],
  secrets: [{ secret: SECRET, expiresAt: null }],
  createdAt: created,
  updatedAt: created,
  disabledAt: disabled ? created : null,
  disabledReason: disabled ? 'every delivery attempt failed for 120 hours' : null,
  failingSince: null,
});

const delivery = (id: string): ClaimedDelivery => ({
  id,
  locationId: 'location-1',
  endpointId: 'endpoint-1',
  generation: 0,
  attemptCount: 0,
  event: {
    id: `event-${id}`,
    locationId: 'location-1',
    sequence: 1,
    type: 'table.occupied',
    occurredAt: created,
    data: {
      tableId: 't1',
      orderId: 'o1',
      reservationExternalId: null,
      covers: 2,
      occurredAt: created.toIso(),
    },
  } as unknown as StoredEvent,
});

describe('DeliveryAttempts', () => {
  it('When the cached endpoint says disabled but it was re-enabled since, then the attempt reads it again and sends instead of failing the delivery for good', async () => {
    let current = endpoint(true);
    const sent: SendRequest[] = [];
    const recorded: string[] = [];
    const attempts = new DeliveryAttempts({
      log: {
        record: async (claimed, _result, followUp) => {
          recorded.push(`${claimed.id}:${followUp.kind}`);
          return { endpointDisabled: false };
        },
      },
      disableAfterHours: 120,
      slowAfterMs: 5_000,
      endpoints: new EndpointCache({ findEndpointById: async () => current }, 60_000),
      sender: {
        send: async (request) => {
          sent.push(request);
          return { status: 204, durationMs: 1, error: null, retryAfterMs: null };
        },
      },
      retry: { delaysMs: [] },
      logger: testLogger,
    });

    await attempts.run(delivery('d1')); // reads (and caches) the endpoint while it is disabled
    current = endpoint(false); // a PUT re-enables it, well within the cache's minute
    const after = await attempts.run(delivery('d2'));

    expect(recorded).toEqual(['d1:failed', 'd2:succeeded']);
    expect(sent.map((r) => r.url)).toEqual(['https://receiver.example/hooks']);
    expect(after.decision.kind).toBe('succeeded');
  });
});
