import { createProviderClient, ProviderApiError, type ProviderClientOptions } from '../src';

/** A client whose fetch answers every request with `answer` and records what was sent. */
function clientAnswering(answer: () => Response, options: Partial<ProviderClientOptions> = {}) {
  const sent: Request[] = [];
  const sdk = createProviderClient({
    baseUrl: 'https://pis.example.test/',
    apiKey: 'chez_sk_live_abc',
    retry: { minDelayMs: 1 },
    ...options,
    fetch: async (request) => {
      sent.push(request);
      return answer();
    },
  });
  return { sdk, sent };
}

describe('createProviderClient', () => {
  it('When a call is made, then it goes to the documented path with the key as bearer and the body as JSON', async () => {
    const { sdk, sent } = clientAnswering(() =>
      Response.json({ deliveryId: 'd 1' }, { status: 202, headers: { 'x-request-id': 'req-1' } }),
    );

    await expect(sdk.redeliverWebhook('d 1')).resolves.toEqual({ deliveryId: 'd 1' });
    await sdk.listReservations({ from: '2026-11-21T00:00Z', to: '2026-11-22T00:00Z', limit: 5 });
    const reservation = {
      externalId: 'r-1',
      status: 'confirmed',
      covers: 2,
      startsAt: '2026-11-21T19:00:00Z',
      updatedAt: '2026-11-20T10:00:00Z',
    } as const;
    await sdk.createReservation(reservation);

    expect(sent.map((r) => [r.method, r.url])).toEqual([
      ['POST', 'https://pis.example.test/api/provider/v1/webhook-deliveries/d%201/redeliver'],
      [
        'GET',
        'https://pis.example.test/api/provider/v1/reservations?from=2026-11-21T00%3A00Z&to=2026-11-22T00%3A00Z&limit=5',
      ],
      ['POST', 'https://pis.example.test/api/provider/v1/reservations'],
    ]);
    expect(sent.map((r) => r.headers.get('authorization'))).toEqual(Array(3).fill('Bearer chez_sk_live_abc'));
    expect(sent[2]!.headers.get('content-type')).toBe('application/json');
    expect(await sent[2]!.json()).toEqual(reservation);
  });

  it('When the simulator and the test event are called, then they go to the sandbox and webhook-endpoint paths', async () => {
    const { sdk, sent } = clientAnswering(() => Response.json({}, { status: 200 }));

    await sdk.sandbox.publishFloorPlan();
    await sdk.sandbox.openWalkInOrder({ tableIds: ['t 1'], covers: 2 });
    await sdk.sandbox.listOrders({ status: 'open' });
    await sdk.sandbox.addOrderItem('o 1', { label: 'Negroni', amountMinor: 1200 });
    await sdk.sandbox.moveOrder('o 1', { tableIds: ['t 2'] });
    await sdk.sandbox.closeOrder('o 1');
    await sdk.sandbox.voidOrder('o 2');
    await sdk.testWebhookEndpoint();

    const base = 'https://pis.example.test/api/provider/v1';
    expect(sent.map((r) => `${r.method} ${r.url.slice(base.length)}`)).toEqual([
      'POST /sandbox/floorplan/publish',
      'POST /sandbox/orders',
      'GET /sandbox/orders?status=open',
      'POST /sandbox/orders/o%201/items',
      'POST /sandbox/orders/o%201/move',
      'POST /sandbox/orders/o%201/close',
      'POST /sandbox/orders/o%202/void',
      'POST /webhook-endpoint/test',
    ]);
  });

  it('When something in between answers 502 without the envelope, then ProviderApiError has code null and the status', async () => {
    const { sdk } = clientAnswering(
      () =>
        new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );

    const error = await sdk.getFloorPlan().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({
      name: 'ProviderApiError',
      status: 502,
      code: null,
      occupiedBy: null,
      details: [],
      requestId: null,
      message: expect.stringContaining('Bad Gateway'),
    });
  });
});

/** Answers from `answers` in turn (a thrown error for an Error), recording each request. */
function clientScripted(answers: (Response | Error)[], options: Partial<ProviderClientOptions> = {}) {
  const sent: Request[] = [];
  const sdk = createProviderClient({
    baseUrl: 'https://pis.example.test',
    apiKey: 'openbook_pk_live_abc',
    retry: { retries: 2, minDelayMs: 1, maxDelayMs: 50 },
    ...options,
    fetch: async (request) => {
      sent.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error('no answer scripted');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { sdk, sent };
}

const envelope = (status: number, code: string, headers: Record<string, string> = {}) =>
  Response.json({ error: { code, message: code } }, { status, headers });
const item = { label: 'Negroni', amountMinor: 1200 };

describe('the client’s own retries', () => {
  it('When a POST fails on the network and then answers 409 idempotency_in_progress, then it is sent again with one generated key, and its body each time', async () => {
    const { sdk, sent } = clientScripted([
      new TypeError('fetch failed'),
      envelope(409, 'idempotency_in_progress'),
      Response.json({ id: 'o-1' }, { status: 200 }),
    ]);

    await expect(sdk.sandbox.addOrderItem('o-1', item)).resolves.toEqual({ id: 'o-1' });

    const keys = sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(await Promise.all(sent.map((r) => r.json()))).toEqual([item, item, item]);
  });

  it('When two logical POSTs are made, then each has its own key; a key of the caller’s is sent as given', async () => {
    const { sdk, sent } = clientScripted([200, 200, 200].map((status) => Response.json({}, { status })));

    await sdk.sandbox.closeOrder('o-1');
    await sdk.sandbox.closeOrder('o-1');
    await sdk.sandbox.closeOrder('o-1', { idempotencyKey: 'mine-1' });

    const keys = sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('mine-1');
  });

  it('When an answer is final (4xx other than 429 and in-progress), then it is not retried', async () => {
    const { sdk, sent } = clientScripted([envelope(409, 'table_occupied')]);

    const error = await sdk.sandbox.openWalkInOrder({ tableIds: ['t'], covers: 2 }).catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 409, code: 'table_occupied' });
    expect(sent).toHaveLength(1);
  });

  it('When a GET answers 503 each time, then it is tried 1 + retries times without a key and the last answer is the error', async () => {
    const { sdk, sent } = clientScripted([1, 2, 3].map(() => envelope(503, 'service_unavailable')));

    const error = await sdk.getFloorPlan().catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 503 });
    expect(sent).toHaveLength(3);
    expect(sent.every((r) => r.headers.get('idempotency-key') === null)).toBe(true);
  });

  it('When 429 asks to wait longer than the longest wait, then the answer is returned at once', async () => {
    const { sdk, sent } = clientScripted([envelope(429, 'rate_limited', { 'retry-after': '30' })]);

    const error = await sdk.getFloorPlan().catch((e: unknown) => e);

    expect(error).toMatchObject({ status: 429 });
    expect(sent).toHaveLength(1);
  });

  it('When retries are off, then a POST is sent once and without a key, as before', async () => {
    const { sdk, sent } = clientScripted([new TypeError('fetch failed')], { retry: { retries: 0 } });

    await expect(sdk.sandbox.closeOrder('o-1')).rejects.toThrow('fetch failed');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('idempotency-key')).toBeNull();
  });

  it('When the caller aborts during the wait, then no further attempt is made', async () => {
    const controller = new AbortController();
    const sent: Request[] = [];
    const sdk = createProviderClient({
      baseUrl: 'https://pis.example.test',
      apiKey: 'openbook_pk_live_abc',
      retry: { retries: 2, minDelayMs: 60_000, maxDelayMs: 60_000 },
      fetch: async (request) => {
        sent.push(request);
        controller.abort(new Error('stopped'));
        return envelope(503, 'service_unavailable');
      },
    });

    await expect(sdk.getFloorPlan({ signal: controller.signal })).rejects.toThrow('stopped');
    expect(sent).toHaveLength(1);
  });
});

describe('the location of a call', () => {
  it('When a client is for a location, then every call sends its Location-Id, a call’s own wins, and the connections never carry one', async () => {
    const { sdk, sent } = clientScripted(
      [1, 2, 3, 4].map(() => Response.json({ connections: [], nextCursor: null })),
      { locationId: 'loc-a' },
    );

    await sdk.getTableState();
    await sdk.getTableState({ locationId: 'loc-b' });
    await sdk.forLocation('loc-c').getTableState();
    await sdk.listConnections({ limit: 5 });

    expect(sent.map((r) => r.headers.get('location-id'))).toEqual(['loc-a', 'loc-b', 'loc-c', null]);
    expect(sdk.locationId).toBe('loc-a');
    expect(sdk.forLocation('loc-c').locationId).toBe('loc-c');
  });
});
