import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { freePort } from './support/api-process';

const ROOT = join(__dirname, '../../..');
jest.setTimeout(180_000);

interface Start {
  /**
   * Everything printed so far: until the welcome when the start resolves, and all of it once
   * `stop()` returned (stdout and stderr are separate pipes, so a log line printed before the
   * welcome may arrive after it).
   */
  readonly output: string;
  exitCode: number | null;
  exports: Record<string, string>;
  stop(): Promise<number | null>;
}

/** `pnpm start`'s entry point on `dataDir`, embedded; resolves at the welcome or at exit. */
function start(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Start> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no welcome and no exit:\n${output}`));
    }, 120_000);
    const settle = (exitCode: number | null) => {
      clearTimeout(timer);
      const exports = Object.fromEntries(
        [...output.matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
      );
      resolve({
        get output() {
          return output;
        },
        exitCode,
        exports,
        stop,
      });
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/export BACKOFFICE_TOKEN=.*\n(.*\n)*\n/.test(output)) settle(null);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    void exited.then((code) => settle(code));
  });
}

describe('the first start in embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pis-first-start-'));
  let blocker: Server | null = null;
  afterAll(() => {
    blocker?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('When the port is taken at the first start, then it fails naming the port and makes no key; the next start makes and shows it, and every later start shows LOCATION_ID', async () => {
    const taken = await freePort();
    blocker = createServer().listen(taken, '127.0.0.1');
    await new Promise((resolve) => blocker!.once('listening', resolve));

    const failed = await start(dataDir, taken);

    expect(failed.exitCode).toBe(1);
    expect(failed.output).toContain(
      `The API could not start: 127.0.0.1 port ${taken} is already in use (EADDRINUSE)`,
    );
    expect(failed.output).not.toMatch(/at \w+ \(|export API_KEY/);

    const port = await freePort();
    const first = await start(dataDir, port, { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' });
    const health = await request(first.exports['PIS']!).get('/healthz');
    // What an orchestrator and Prometheus send every few seconds.
    for (let round = 0; round < 3; round++) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        await request(first.exports['PIS']!).get(path).expect(200);
      }
    }
    const floorplan = await request(first.exports['PIS']!)
      .get('/api/provider/v1/floorplan')
      .set('Authorization', `Bearer ${first.exports['API_KEY']}`);
    expect(await first.stop()).toBe(0);

    expect(Object.keys(first.exports).sort()).toEqual(['API_KEY', 'BACKOFFICE_TOKEN', 'LOCATION_ID', 'PIS']);
    expect(first.exports['PIS']).toBe(`http://127.0.0.1:${port}`);
    expect(first.exports['API_KEY']).toMatch(/^demo_sk_live_/);
    expect(health.status).toBe(200);
    // The key works: the demo location has no published plan yet.
    expect(floorplan.status).toBe(404);
    // LOG_FORMAT=pretty: a readable line, not JSON; HOST: bound to the loopback address only.
    expect(first.output).toMatch(/INFO.*API listening\n\s+address: "127\.0\.0\.1"/);
    expect(first.output).not.toContain('{"level":');
    // The welcome says what is new and what is shown once, above lines a shell takes as they are.
    const welcome = first.output.indexOf('Embedded mode: the API is at');
    expect(first.output.slice(welcome)).toMatch(
      /^Embedded mode: the API is at \S+\.\nThe backoffice token is new: .*\nThe demo key \(API_KEY\) is shown only this once\.\nPaste these 4 lines into your shell:\n(  export \w+=\S+\n){4}\n/,
    );
    // It stays the last thing on screen: the start writes nothing after it, and neither do the
    // probes and scrapes; the provider's request that followed is one line with its error code.
    const afterWelcome = first.output.slice(first.output.indexOf('export API_KEY='));
    expect(afterWelcome).not.toMatch(/healthz|readyz|metrics/);
    expect(afterWelcome.match(/request completed/g)).toHaveLength(1);
    expect(afterWelcome).toMatch(/"statusCode": 404[\s\S]*errorCode: "floorplan_not_published"/);

    const again = await start(dataDir, port);
    expect(await again.stop()).toBe(0);

    expect(again.exports).toEqual({
      PIS: first.exports['PIS'],
      BACKOFFICE_TOKEN: first.exports['BACKOFFICE_TOKEN'],
      LOCATION_ID: first.exports['LOCATION_ID'],
    });
    expect(again.output).toContain('pnpm reset');
    expect(again.output).not.toContain('token is new');
    expect(again.output).toMatch(/"msg":"API listening"/);
  });
});
