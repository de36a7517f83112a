import { spawn } from 'node:child_process';
import type { RunningServices } from '../env';
import { freePort } from '../env';
import { runLoad } from '../load';
import { ROOT, startService, waitFor } from '../processes';
import type { LatencySummary } from '../report/stats';
import { sampled, type ScenarioContext, type ScenarioResult } from '../scenario';
import { fullBody } from '../seed';

/** The bare-pg baseline in its own process, at the benchmark's concurrency and duration. */
export async function barePg(ctx: ScenarioContext): Promise<ScenarioResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/bench/src/baselines/bare-pg.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: ctx.databaseUrl,
      CONNECTIONS: String(ctx.connections),
      DURATION_S: String(ctx.durationS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const { value, resources } = await sampled(
    ctx.services,
    async () => {
      if ((await exited) !== 0) throw new Error(`the bare-pg baseline failed: ${err}`);
      return JSON.parse(out) as { requests: number; rps: number; latency: LatencySummary };
    },
    { baseline: { pid: child.pid! } },
  );
  return {
    name: 'baseline-bare-pg',
    description: 'bare pg client: the one-statement LWW upsert with the full body, same concurrency, no HTTP',
    load: { ...value, statuses: {}, errors: 0, timeline: [] },
    resources,
    metrics: {},
    timeline: [],
    notes: ['the client process is "baseline" in the resources'],
  };
}

/** The bare-express baseline: same bodies and answer size as put-applied, no database. */
export async function bareExpress(ctx: ScenarioContext, services: RunningServices): Promise<ScenarioResult> {
  const port = await freePort();
  const server = startService('bare-express', 'tools/bench/src/baselines/bare-express.ts', {
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the bare-express baseline', async () => (await fetch(`${url}/`)).status === 404);
    let i = 0;
    const { value: load, resources } = await sampled(
      services,
      () =>
        runLoad({
          url,
          connections: ctx.connections,
          durationS: ctx.durationS,
          headers: { 'content-type': 'application/json' },
          requests: [
            {
              method: 'PUT',
              setupRequest: (req) => {
                const n = i++;
                const body = JSON.stringify(
                  fullBody(
                    `pa-${n % 20_000}`,
                    new Date(Date.parse('2026-01-02T00:00:00Z') + n).toISOString(),
                  ),
                );
                return { ...req, path: `/api/provider/v1/reservations/pa-${n % 20_000}`, body };
              },
            },
          ],
          expected: [200],
        }),
      { baseline: { group: server.child.pid! } },
    );
    return {
      name: 'baseline-bare-express',
      description: 'bare Express handler parsing the same PUT body and answering the same JSON, no database',
      load,
      resources,
      metrics: {},
      timeline: load.timeline,
      notes: [],
    };
  } finally {
    await server.stop();
  }
}
