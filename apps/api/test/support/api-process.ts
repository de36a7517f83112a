import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import request, { type Response } from 'supertest';

const ROOT = join(__dirname, '../../../..');

/** A loopback port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * `apps/api/src/main.ts` as a child process on its own port, with only the environment the
 * test gives (plus PATH and PORT). tsx's loader runs inside the one node process (`node
 * --import tsx`), and `API_WORKERS` stays 1 (no cluster): a SIGKILL hits the process that
 * holds the relay, the poller and the HTTP server, as a crash would.
 */
export class ApiProcess {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ? null : code)));
  }

  /**
   * Spawns and waits until `/healthz` answers: main listens only after the runtime (relay,
   * poller) started. `args`: node's arguments, the sources through tsx unless a test runs
   * the built bundle.
   */
  static async start(
    env: Record<string, string>,
    timeoutMs = 30_000,
    args = ['--import', 'tsx', 'apps/api/src/main.ts'],
  ): Promise<ApiProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const api = new ApiProcess(child, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the API exited before it listened:\n${api.output}`);
      }
      const healthy = await request(api.baseUrl)
        .get('/healthz')
        .timeout(1_000)
        .then((res) => res.status === 200)
        .catch(() => false);
      if (healthy) return api;
      if (Date.now() > deadline) {
        await api.stop('SIGKILL');
        throw new Error(`the API never answered /healthz:\n${api.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  get log(): string {
    return this.output;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** A request with a bearer credential; `body` is sent as JSON. */
  call(method: 'get' | 'post' | 'put', path: string, token: string, body?: object): Promise<Response> {
    const test = request(this.baseUrl)[method](path).set('Authorization', `Bearer ${token}`).timeout(10_000);
    return body === undefined ? test : test.send(body);
  }

  /** Sends the signal and resolves with the exit code (null when the signal killed it). */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
