import { createProviderClient, ProviderApiError } from '../src';

/** A client whose fetch answers every request with `answer` and records what was sent. */
function clientAnswering(answer: () => Response) {
  const sent: Request[] = [];
  const sdk = createProviderClient({
    baseUrl: 'https://pis.example.test/',
    apiKey: 'chez_sk_live_abc',
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
