import { Writable } from 'node:stream';
import type { Server } from 'node:http';
import type { Response } from 'supertest';
import { createLogger } from '@pis/runtime';
import { SERVER_LIMITS, type ServerLimits } from '../../src/http-server';
import { expectEnvelope } from '../support/envelope';
import { Harness, testResolver, type TestLocation } from '../support/harness';
import { startTestApi, type TestApi } from '../support/test-api';
import { P, reservation } from '../support/wire';
import { LAST_CHUNK, RawConnection, chunk, head, sleep, type RawResponse } from './support/raw-http';

/**
 * The server limits (docs/reference/limits-and-formats.md#http-server-limits, decision 0072), over
 * raw sockets: what an HTTP library would never send (trickled headers, lying lengths, half bodies)
 * and what it would hide (whether and when the server closes). Limits that need no waiting are
 * tried on the API as every suite starts it (production limits); the timeouts on a second API over
 * the same database, started through the same `listen()` with the same limits scaled down so that
 * no test waits seconds.
 */
const SHORT: ServerLimits = {
  ...SERVER_LIMITS,
  headersTimeoutMs: 500,
  requestTimeoutMs: 1_000,
  keepAliveTimeoutMs: 400,
  connectionsCheckingIntervalMs: 50,
};
/** How late a close may come after its limit on a loaded 2-core CI machine. */
const SLACK_MS = 700;
/**
 * Node (20.x) announces `Keep-Alive: timeout=<keepAliveTimeout>` but closes an idle
 * connection one second later, so that a client reusing it at the announced limit does not
 * race the close (HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER in lib/_http_server.js).
 */
const NODE_KEEP_ALIVE_BUFFER_MS = 1_000;

let h: Harness;
let short: TestApi;
const logLines: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  h = await Harness.start();
  const sink = new Writable({
    write(data, _enc, done) {
      for (const line of String(data).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  short = await startTestApi(h.db.url, {}, { resolver: testResolver }, createLogger('info', sink), SHORT);
});
afterAll(async () => {
  await short?.close();
  await h?.stop();
});

const portOf = (server: Server) => (server.address() as { port: number }).port;
const production = () => RawConnection.open(portOf(h.api.server));
const shortLimits = () => RawConnection.open(portOf(short.server));

/** A raw response in the shape `expectEnvelope` reads, so Node's own answers meet the same check. */
const asResponse = (res: RawResponse) =>
  ({ status: res.status, body: res.json, headers: res.headers, text: res.body }) as unknown as Response;

async function storedReservations(loc: TestLocation): Promise<number> {
  const [row] = await h.db.dataSource.query(
    'SELECT count(*)::int AS n FROM reservations WHERE location_id = $1',
    [loc.id],
  );
  return row.n;
}

/** A valid reservation body, so that only the limit under test can keep it from being stored. */
function reservationBody(): string {
  return JSON.stringify(reservation());
}

function postHead(loc: TestLocation, framing: Array<[string, string]>): string {
  return head('POST', `${P}/reservations`, [
    ['Authorization', `Bearer ${loc.key}`],
    ['Content-Type', 'application/json'],
    ...framing,
  ]);
}

describe('The production server settings', () => {
  it('When the API is started through listen() without limits, then it runs with SERVER_LIMITS, timeouts checked every second', async () => {
    const server = h.api.server;

    expect(SERVER_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      connectionsCheckingIntervalMs: 1_000,
      maxHeaderSize: 16 * 1024,
      maxHeadersCount: 100,
    });
    expect({
      headersTimeout: server.headersTimeout,
      requestTimeout: server.requestTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
      maxHeadersCount: server.maxHeadersCount,
      maxHeaderSize: (server as Server & { maxHeaderSize?: number }).maxHeaderSize,
    }).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 65_000,
      maxHeadersCount: 100,
      maxHeaderSize: 16 * 1024,
    });
    // Node keeps the checking timer under an internal symbol; its default (30 s) would let a
    // slow client stay up to 40 s instead of 10, which is what this pins.
    const timer = Object.getOwnPropertySymbols(server)
      .filter((s) => s.description === 'http.server.connectionsCheckingInterval')
      .map((s) => (server as unknown as Record<symbol, { _idleTimeout?: number }>)[s]);
    expect(timer.map((t) => t?._idleTimeout)).toEqual([1_000]);
  });

  it('When a keep-alive response is sent, then it announces the 65 s idle timeout', async () => {
    const conn = await production();
    await conn.write(head('GET', '/healthz'));

    const res = await conn.response();

    expect(res.status).toBe(200);
    expect(res.headers['keep-alive']).toBe('timeout=65');
    conn.destroy();
  });
});

describe('Header limits (production settings)', () => {
  let loc: TestLocation;
  beforeAll(async () => {
    loc = await h.location();
  });

  it('When the header section is just under 16 KiB, then the request is served', async () => {
    const conn = await production();
    await conn.write(
      head('GET', `${P}/floorplan`, [
        ['Authorization', `Bearer ${loc.key}`],
        ['X-Padding', 'a'.repeat(15 * 1024)],
      ]),
    );

    expect((await conn.response()).status).toBe(200);
    conn.destroy();
  });

  it('When the header section is over 16 KiB, then 431 validation_failed in the envelope and the connection is closed', async () => {
    const conn = await production();
    await conn.write(
      head('GET', `${P}/floorplan`, [
        ['Authorization', `Bearer ${loc.key}`],
        ['X-Padding', 'a'.repeat(17 * 1024)],
      ]),
    );

    const res = await conn.response();

    expectEnvelope(asResponse(res), 431, 'validation_failed');
    expect(res.headers['connection']).toBe('close');
    expect(await conn.closesWithin(1_000)).toBe(true);
  });

  it('When a request has more than 100 headers, then Node reads the first 100, drops the rest without refusing, and the request is served', async () => {
    const fillers = Array.from({ length: 150 }, (_, i): [string, string] => [`X-Filler-${i}`, 'x']);
    const auth: [string, string] = ['Authorization', `Bearer ${loc.key}`];
    const conn = await production();

    // Host, the credential, then 150 more: the credential is among the first 100.
    await conn.write(head('GET', `${P}/floorplan`, [auth, ...fillers]));
    const first = await conn.response();
    // Host and 150 fillers before the credential: it is header 152, so it is dropped.
    await conn.write(head('GET', `${P}/floorplan`, [...fillers, auth]));
    const second = await conn.response();

    expect(first.status).toBe(200);
    expectEnvelope(asResponse(second), 401, 'unauthorized');
    conn.destroy();
  });
});

describe('Body limits (production settings)', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location();
  });

  it('When a Content-Length over 1 MiB is declared, then 413 validation_failed comes before any of the body is sent, and nothing is stored', async () => {
    const conn = await production();
    const started = Date.now();
    await conn.write(postHead(loc, [['Content-Length', String(1024 * 1024 + 1)]]));

    const res = await conn.response(5_000);

    expectEnvelope(asResponse(res), 413, 'validation_failed');
    // Far under the 30 s request timeout that used to be the first answer to such a client.
    expect(Date.now() - started).toBeLessThan(2_000);
    conn.destroy();
    expect(await storedReservations(loc)).toBe(0);
  });

  it('When a chunked body grows past 1 MiB, then 413 validation_failed, nothing is stored, and the same connection serves the next request', async () => {
    // Valid JSON all along (whitespace, then a reservation): only the size limit refuses it.
    const conn = await production();
    await conn.write(postHead(loc, [['Transfer-Encoding', 'chunked']]));
    for (let i = 0; i < 17; i += 1) await conn.write(chunk(Buffer.alloc(64 * 1024, 0x20)));
    await conn.write(chunk(reservationBody()));
    await conn.write(LAST_CHUNK);

    const res = await conn.response(10_000);

    expectEnvelope(asResponse(res), 413, 'validation_failed');
    expect(await storedReservations(loc)).toBe(0);
    await conn.write(head('GET', `${P}/floorplan`, [['Authorization', `Bearer ${loc.key}`]]));
    expect((await conn.response()).status).toBe(200);
    conn.destroy();
  });

  it('When the same chunked body stays under 1 MiB, then it is stored (the framing itself is accepted)', async () => {
    const conn = await production();
    await conn.write(postHead(loc, [['Transfer-Encoding', 'chunked']]));
    for (let i = 0; i < 15; i += 1) await conn.write(chunk(Buffer.alloc(64 * 1024, 0x20)));
    await conn.write(chunk(reservationBody()));
    await conn.write(LAST_CHUNK);

    expect((await conn.response(10_000)).status).toBe(201);
    expect(await storedReservations(loc)).toBe(1);
    conn.destroy();
  });
});

describe('Timeouts (the same listen(), limits scaled down)', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location();
  });

  it.each([
    ['trickles header bytes and never finishes them (slowloris)', true],
    ['connects and sends nothing', false],
  ])(
    'When a client %s, then 408 validation_failed in the envelope and the connection is closed at the headers timeout',
    async (_case, trickles) => {
      const conn = await shortLimits();
      const trickling = trickles
        ? conn.trickle(`GET ${P}/floorplan HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(200)}`, 1, 20)
        : Promise.resolve();

      expect(await conn.closesWithin(SHORT.headersTimeoutMs + SLACK_MS)).toBe(true);
      await trickling;

      expect(conn.lifetimeMs).toBeGreaterThanOrEqual(SHORT.headersTimeoutMs - 50);
      expectEnvelope(asResponse(await conn.response()), 408, 'validation_failed');
    },
  );

  it('When the body is trickled past the request timeout, then 408 validation_failed, the connection is closed, nothing is stored and nothing is logged as an error', async () => {
    const body = reservationBody();
    const conn = await shortLimits();
    await conn.write(postHead(loc, [['Content-Length', String(body.length)]]));
    // 20 ms a byte: well over 1 s for the whole body.
    const trickling = conn.trickle(body, 1, 20);

    expect(await conn.closesWithin(SHORT.requestTimeoutMs + SLACK_MS)).toBe(true);
    await trickling;

    expect(conn.lifetimeMs).toBeGreaterThanOrEqual(SHORT.requestTimeoutMs - 50);
    expectEnvelope(asResponse(await conn.response()), 408, 'validation_failed');
    await sleep(100);
    expect(await storedReservations(loc)).toBe(0);
    expect(logLines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
  });

  it('When the body comes slowly but within the request timeout, then it is stored', async () => {
    const body = reservationBody();
    const conn = await shortLimits();
    await conn.write(postHead(loc, [['Content-Length', String(body.length)]]));
    await conn.trickle(body, Math.ceil(body.length / 4), 100);

    expect((await conn.response()).status).toBe(201);
    expect(await storedReservations(loc)).toBe(1);
    conn.destroy();
  });

  it('When a client disconnects mid-body, then nothing is stored, nothing is logged as an error, and the server keeps serving', async () => {
    const body = reservationBody();
    const conn = await shortLimits();
    await conn.write(
      postHead(loc, [['Content-Length', String(body.length)]]) + body.slice(0, body.length / 2),
    );
    await sleep(50);
    conn.destroy();
    await sleep(100);

    expect(await storedReservations(loc)).toBe(0);
    expect(logLines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
    const next = await shortLimits();
    await next.write(head('GET', `${P}/floorplan`, [['Authorization', `Bearer ${loc.key}`]]));
    expect((await next.response()).status).toBe(200);
    next.destroy();
  });

  it('When a keep-alive connection carries two requests, then both are answered, and once idle it is closed after the keep-alive timeout (plus a 1 s margin of Node)', async () => {
    const conn = await shortLimits();
    const auth: [string, string] = ['Authorization', `Bearer ${loc.key}`];

    await conn.write(head('GET', `${P}/floorplan`, [auth]));
    expect((await conn.response()).status).toBe(200);
    await sleep(SHORT.keepAliveTimeoutMs / 2);
    await conn.write(head('GET', `${P}/floorplan`, [auth]));
    expect((await conn.response()).status).toBe(200);
    const idleFrom = Date.now();

    expect(await conn.closesWithin(SHORT.keepAliveTimeoutMs + NODE_KEEP_ALIVE_BUFFER_MS + SLACK_MS)).toBe(
      true,
    );
    expect(Date.now() - idleFrom).toBeGreaterThanOrEqual(SHORT.keepAliveTimeoutMs);
    // An idle close is silent: no 408 for a connection that owes no request.
    expect(conn.pending).toBe('');
  });

  it('When 200 connections sit idle, then a new request is served at once, and the idle ones are closed at the headers timeout', async () => {
    const idle = await Promise.all(Array.from({ length: 200 }, () => shortLimits()));
    const conn = await shortLimits();
    const started = Date.now();

    await conn.write(head('GET', `${P}/floorplan`, [['Authorization', `Bearer ${loc.key}`]]));
    expect((await conn.response()).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(SHORT.headersTimeoutMs);

    await Promise.all(idle.map((c) => c.closesWithin(SHORT.headersTimeoutMs + SLACK_MS)));
    expect(idle.filter((c) => !c.isClosed)).toHaveLength(0);
    conn.destroy();
  });
});
