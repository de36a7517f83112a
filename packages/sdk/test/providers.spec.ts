import { createServer, connect, type Server, type Socket } from 'node:net';
import { Harness, type TestLocation } from '@pis/api/test/support/harness';
import { createProvider, grant, revoke, type TestProvider } from '@pis/api/test/support/providers';
import { Receiver, verified } from '@pis/api/test/support/receiver';
import { createProviderClient, ProviderApiError, type ProviderClient } from '../src';

/**
 * The client with a provider key against a started API: one key, a location per client or
 * per call, the connections page by page, and its own retries applied once by the service.
 */

interface SeenRequest {
  line: string;
  headers: Record<string, string>;
}

/**
 * A TCP proxy in front of the API that can drop a connection right after the API answered a
 * request: the request is applied, and the client never gets the answer.
 */
class DroppingProxy {
  readonly requests: SeenRequest[] = [];
  readonly responses: SeenRequest[] = [];
  dropped = 0;
  /** The next request whose request line matches loses its answer. */
  dropNext: RegExp | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(target: string): Promise<DroppingProxy> {
    const { hostname, port } = new URL(target);
    let proxy: DroppingProxy | undefined;
    const server = createServer((client) => proxy!.relay(client, hostname, Number(port)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no proxy port');
    proxy = new DroppingProxy(server, `http://127.0.0.1:${address.port}`);
    return proxy;
  }

  private relay(client: Socket, host: string, port: number): void {
    const upstream = connect(port, host);
    this.sockets.add(client).add(upstream);
    let drop = false;
    client.on('data', (chunk: Buffer) => {
      const head = parseHead(chunk);
      if (head && /^[A-Z]+ \//.test(head.line)) {
        this.requests.push(head);
        if (this.dropNext?.test(head.line)) {
          drop = true;
          this.dropNext = null;
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      const head = parseHead(chunk);
      if (head && head.line.startsWith('HTTP/')) this.responses.push(head);
      if (drop) {
        this.dropped += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function parseHead(chunk: Buffer): SeenRequest | null {
  const text = chunk.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [line, ...fields] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    if (colon > 0) headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  return { line: line!, headers };
}

let h: Harness;
let proxy: DroppingProxy;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start();
  proxy = await DroppingProxy.start(h.api.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await h?.stop();
  await receiver?.close();
});

const sdkFor = (provider: TestProvider, locationId?: string): ProviderClient =>
  createProviderClient({
    baseUrl: proxy.origin,
    apiKey: provider.key,
    retry: { retries: 2, minDelayMs: 20 },
    ...(locationId ? { locationId } : {}),
  });

async function refusal(pending: Promise<unknown>): Promise<ProviderApiError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
}

describe('a provider key in the SDK', () => {
  let provider: TestProvider;
  let venues: TestLocation[];
  beforeAll(async () => {
    provider = await createProvider(h, 'test');
    venues = [];
    for (let i = 0; i < 3; i += 1) {
      const venue = await h.location({ sandbox: true, tables: 2 });
      await grant(h, venue, provider);
      venues.push(venue);
    }
  });

  it('When a retried POST lost its first answer to a dropped connection, then the service applied it once and the client resolves with its answer', async () => {
    const venue = venues[0]!;
    const sdk = sdkFor(provider).forLocation(venue.id);
    const order = await sdk.sandbox.openWalkInOrder({ tableIds: [venue.tables[0]!], covers: 2 });
    const itemsPath = `/api/provider/v1/sandbox/orders/${order.id}/items`;
    const sent = () => proxy.requests.filter((r) => r.line.startsWith(`POST ${itemsPath} `));

    proxy.dropNext = new RegExp(`^POST ${itemsPath} `);
    const answered = await sdk.sandbox.addOrderItem(order.id, { label: 'Negroni', amountMinor: 1200 });

    expect(proxy.dropped).toBe(1);
    expect(sent()).toHaveLength(2);
    const [first, retry] = sent();
    expect(first!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(retry!.headers['location-id']).toBe(venue.id);
    expect(proxy.responses.at(-1)!.headers['idempotent-replayed']).toBe('true');
    expect(answered.check.items.map((i) => i.label)).toEqual(['Negroni']);
    const [stored] = await h.openOrders(venue);
    expect((stored!['check'] as { items: unknown[] }).items.length).toBe(1);

    // A key of the caller's wins, on the first attempt and on the retry.
    proxy.dropNext = new RegExp(`^POST ${itemsPath} `);
    const again = await sdk.sandbox.addOrderItem(
      order.id,
      { label: 'Spritz', amountMinor: 900 },
      { idempotencyKey: `mine-${order.id}` },
    );
    expect(
      sent()
        .slice(2)
        .map((r) => r.headers['idempotency-key']),
    ).toEqual([`mine-${order.id}`, `mine-${order.id}`]);
    expect(again.check.items.map((i) => i.label)).toEqual(['Negroni', 'Spritz']);
    const [after] = await h.openOrders(venue);
    expect((after!['check'] as { items: unknown[] }).items.length).toBe(2);
  });

  it('When two calls race with one key of the caller’s, then the item is added once and both resolve with its answer (the second replayed, or retried past idempotency_in_progress)', async () => {
    const venue = venues[2]!;
    const sdk = createProviderClient({
      baseUrl: proxy.origin,
      apiKey: provider.key,
      locationId: venue.id,
      retry: { retries: 8, minDelayMs: 20, maxDelayMs: 1000 },
    });
    const order = await sdk.sandbox.openWalkInOrder({ tableIds: [venue.tables[1]!], covers: 2 });
    const key = `race-${order.id}`;
    const add = () =>
      sdk.sandbox.addOrderItem(order.id, { label: 'Amaro', amountMinor: 800 }, { idempotencyKey: key });

    const [one, two] = await Promise.all([add(), add()]);

    expect(two).toEqual(one);
    expect(one.check.items.map((i) => i.label)).toEqual(['Amaro']);
    const stored = (await h.openOrders(venue)).find((o) => o['id'] === order.id)!;
    expect((stored['check'] as { items: unknown[] }).items).toHaveLength(1);
  });

  it('When the same key is used per call across venues, then each call acts for the location it names', async () => {
    const sdk = sdkFor(provider);
    const [a, b] = venues;

    const atA = await sdk.getTableState({ locationId: a!.id });
    const atB = await sdk.forLocation(a!.id).getTableState({ locationId: b!.id });
    expect(atA.tables.map((t) => t.tableId).sort()).toEqual([...a!.tables].sort());
    expect(atB.tables.map((t) => t.tableId).sort()).toEqual([...b!.tables].sort());

    const missing = await refusal(sdk.getTableState());
    expect([missing.status, missing.code]).toEqual([400, 'location_required']);
    const stranger = await h.location({ sandbox: true, tables: 1 });
    const refused = await refusal(sdk.forLocation(stranger.id).getTableState());
    expect([refused.status, refused.code]).toEqual([403, 'location_not_granted']);
  });

  it('When the provider lists its connections page by page, then every venue comes once in grant order, the revoked one marked, and no Location-Id is sent', async () => {
    const other = await createProvider(h, 'test');
    const mine: TestLocation[] = [];
    for (let i = 0; i < 5; i += 1) {
      const venue = await h.location({ sandbox: true, tables: 1 });
      await grant(h, venue, other);
      mine.push(venue);
    }
    await revoke(h, mine[1]!, other);
    const sdk = sdkFor(other, mine[0]!.id);

    const page = await sdk.listConnections({ limit: 2 });
    expect(page.connections).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const before = proxy.requests.length;
    const all = [];
    for await (const connection of sdk.readConnections({ pageSize: 2 })) all.push(connection);

    expect(all.map((c) => c.locationId)).toEqual(mine.map((v) => v.id));
    expect(all.map((c) => c.status)).toEqual(['active', 'revoked', 'active', 'active', 'active']);
    expect(all.every((c) => c.sandbox)).toBe(true);
    const reads = proxy.requests.slice(before);
    expect(reads).toHaveLength(3);
    expect(reads.every((r) => r.line.startsWith('GET /api/provider/v1/connections?'))).toBe(true);
    expect(reads.map((r) => r.headers['location-id'])).toEqual([undefined, undefined, undefined]);
  });
});

describe('webhook endpoints by id in the SDK', () => {
  it("When a provider manages endpoints at two venues with one client, then each call acts in the scope it names and another scope's id is not_found", async () => {
    const provider = await createProvider(h, 'test');
    const [a, b] = [
      await h.location({ sandbox: true, tables: 1 }),
      await h.location({ sandbox: true, tables: 1 }),
    ];
    await grant(h, a, provider);
    await grant(h, b, provider);
    const sdk = sdkFor(provider);
    const atA = sdk.forLocation(a.id);

    const kitchen = await atA.webhookEndpoints.create({
      url: `${receiver.origin}/sdk/kitchen`,
      description: 'kitchen display',
      eventTypes: ['table.occupied'],
    });
    const host = await sdk.webhookEndpoints.create(
      { url: `${receiver.origin}/sdk/host` },
      { locationId: a.id },
    );
    const atB = await sdk.webhookEndpoints.create({ url: `${receiver.origin}/sdk/b` }, { locationId: b.id });
    expect(kitchen).toMatchObject({
      scope: 'location',
      locationId: a.id,
      description: 'kitchen display',
      eventTypes: ['table.occupied'],
      status: 'enabled',
    });
    expect(kitchen.secret).toMatch(/^whsec_/);

    expect((await atA.webhookEndpoints.list()).endpoints.map((e) => e.id)).toEqual([kitchen.id, host.id]);
    expect((await atA.webhookEndpoints.get(host.id)).url).toBe(`${receiver.origin}/sdk/host`);
    const stranger = await refusal(atA.webhookEndpoints.get(atB.id));
    expect([stranger.status, stranger.code]).toEqual([404, 'not_found']);

    const patched = await atA.webhookEndpoints.update(kitchen.id, { eventTypes: ['table.freed'] });
    expect(patched.eventTypes).toEqual(['table.freed']);
    expect(patched.url).toBe(kitchen.url);
    const rotated = await atA.webhookEndpoints.rotateSecret(kitchen.id);
    expect(rotated.secret).not.toBe(kitchen.secret);

    const tested = await atA.webhookEndpoints.test(host.id);
    expect(tested).toMatchObject({ delivered: true });
    const [ping] = receiver.requests.filter((r) => r.path === '/sdk/host');
    expect((verified(ping!, host.secret) as { type: string }).type).toBe('webhook.test');

    await atA.sandbox.openWalkInOrder({ tableIds: [a.tables[0]!], covers: 2 });
    const feed = await atA.listEvents();
    expect(feed.events.length).toBeGreaterThan(0);
    const recovered = await atA.webhookEndpoints.recover(host.id, { afterSequence: 0 });
    expect(recovered.queued).toBe(feed.events.length);

    await atA.webhookEndpoints.delete(kitchen.id);
    expect((await atA.webhookEndpoints.list()).endpoints.map((e) => e.id)).toEqual([host.id]);
    const gone = await refusal(atA.webhookEndpoints.get(kitchen.id));
    expect([gone.status, gone.code]).toEqual([404, 'not_found']);
    const invalid = await refusal(
      atA.webhookEndpoints.create({ url: `${receiver.origin}/x`, eventTypes: ['no.such'] as never }),
    );
    expect([invalid.status, invalid.code]).toEqual([422, 'validation_failed']);
  });

  it('When a provider’s client names no location, then its webhook endpoints are provider-scope: listed apart, recovered by since with the connected venue’s events and the connection event, never by sequence', async () => {
    const provider = await createProvider(h, 'test');
    const sdk = sdkFor(provider);
    const since = new Date(Date.now() - 1000).toISOString();
    const everywhere = await sdk.webhookEndpoints.create({ url: `${receiver.origin}/sdk/everywhere` });
    expect(everywhere).toMatchObject({ scope: 'provider', locationId: null });
    expect(everywhere.eventTypes).toContain('connection.granted');
    const venue = await h.location({ sandbox: true, tables: 1 });
    await grant(h, venue, provider);
    const at = sdk.forLocation(venue.id);
    await at.sandbox.openWalkInOrder({ tableIds: [venue.tables[0]!], covers: 2 });
    const feed = await at.listEvents();
    expect(feed.events.length).toBeGreaterThan(0);

    expect((await sdk.webhookEndpoints.list()).endpoints.map((e) => e.id)).toEqual([everywhere.id]);
    expect((await at.webhookEndpoints.list()).endpoints).toEqual([]);
    const recovered = await sdk.webhookEndpoints.recover(everywhere.id, { since });
    expect(recovered.queued).toBe(feed.events.length + 1);
    const bySequence = await refusal(sdk.webhookEndpoints.recover(everywhere.id, { afterSequence: 0 }));
    expect([bySequence.status, bySequence.code]).toEqual([422, 'validation_failed']);
    const elsewhere = await refusal(at.webhookEndpoints.get(everywhere.id));
    expect([elsewhere.status, elsewhere.code]).toEqual([404, 'not_found']);
  });

  it('When a call passes locationId null, then it sends no Location-Id even from a client that has one', async () => {
    const provider = await createProvider(h, 'test');
    const venue = await h.location({ sandbox: true, tables: 1 });
    await grant(h, venue, provider);
    const sdk = sdkFor(provider, venue.id);
    const before = proxy.requests.length;

    const refused = await refusal(sdk.getTableState({ locationId: null }));

    expect([refused.status, refused.code]).toEqual([400, 'location_required']);
    const sent = proxy.requests
      .slice(before)
      .filter((r) => r.line.startsWith('GET /api/provider/v1/tables/state'));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.map((r) => r.headers['location-id'])).toEqual(sent.map(() => undefined));
    expect((await sdk.getTableState()).tables).toHaveLength(1);
  });
});
