import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as it came off the wire. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
  /** `body` parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/**
 * A client socket that writes exactly the bytes a test gives it and parses the responses
 * itself: what an HTTP library would never send (trickled headers, lying lengths, half
 * bodies) and what it would hide (when, and whether, the server closes the connection).
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  private closedAt: number | null = null;
  /** Settles when the server (or the test) closes the connection. */
  readonly closed: Promise<void>;

  /**
   * `openedAt`: when the connection was asked for, before `connect()`. The server's timers
   * for it start later than that (at its accept), and on a busy machine the client's connect
   * callback may run well after them: a lifetime from then would be short by that delay.
   */
  private constructor(
    private readonly socket: Socket,
    readonly openedAt: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    // A server that closes while the test still writes answers with a reset: that is an
    // outcome the tests look at (`isClosed`), not a failure of the helper.
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedAt = Date.now();
        this.wake();
        resolve();
      }),
    );
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const openedAt = Date.now();
      const socket = connect({ port, host: '127.0.0.1' }, () => resolve(new RawConnection(socket, openedAt)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.closedAt !== null;
  }

  /** Milliseconds from opening to the server closing the connection (null while open). */
  get lifetimeMs(): number | null {
    return this.closedAt === null ? null : this.closedAt - this.openedAt;
  }

  /** Bytes received and not yet consumed by `response()`. */
  get pending(): string {
    return this.buffer.toString('latin1');
  }

  /** Writes unless the connection is gone; says whether it wrote. */
  write(data: string | Buffer): Promise<boolean> {
    if (this.isClosed || this.socket.destroyed || !this.socket.writable) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(data, (error) => resolve(!error)));
  }

  /** Writes `data` a few bytes at a time, every `everyMs`, until it is all sent or the connection closes. */
  async trickle(data: string | Buffer, bytesPerWrite: number, everyMs: number): Promise<void> {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1');
    for (let at = 0; at < bytes.length; at += bytesPerWrite) {
      if (!(await this.write(bytes.subarray(at, at + bytesPerWrite)))) return;
      await sleep(everyMs);
    }
  }

  /** The next complete response, within `timeoutMs`. */
  async response(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.tryParse();
      if (parsed) return parsed;
      if (this.isClosed)
        throw new Error(`connection closed before a full response; got ${JSON.stringify(this.pending)}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no full response within ${timeoutMs} ms; got ${JSON.stringify(this.pending)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Whether the server closes the connection within `timeoutMs`. */
  async closesWithin(timeoutMs: number): Promise<boolean> {
    await Promise.race([this.closed, sleep(timeoutMs)]);
    return this.isClosed;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private tryParse(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const rest = this.buffer.subarray(end + 4);
    let body: Buffer;
    let used: number;
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (rest.length < length) return null;
      body = rest.subarray(0, length);
      used = length;
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let at = 0;
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', at);
        if (lineEnd < 0) return null;
        const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
        if (rest.length < lineEnd + 2 + size + 2) return null;
        chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(chunks);
      used = at;
    } else {
      // No framing (Node's own 408/431/400 answers): the body runs to the close.
      if (!this.isClosed) return null;
      body = rest;
      used = rest.length;
    }
    this.buffer = rest.subarray(used);
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status, headers, body: text, json };
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A request head; `headers` are sent as given, in order (Host first unless given). */
export function head(method: string, path: string, headers: Array<[string, string]> = []): string {
  const all: Array<[string, string]> = headers.some(([name]) => name.toLowerCase() === 'host')
    ? headers
    : [['Host', '127.0.0.1'], ...headers];
  return `${method} ${path} HTTP/1.1\r\n${all.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}

/** One chunk of a chunked body. */
export function chunk(data: string | Buffer): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
}

export const LAST_CHUNK = '0\r\n\r\n';
