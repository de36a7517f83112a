import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { withClient } from '../database';
import { runClosedLoop } from '../load/closed-loop';
import { loadResult, type LoadResult } from '../load/outcomes';
import { freePort, startGroup, waitFor } from '../processes';
import {
  measure,
  measuredResult,
  type Measured,
  type ScenarioContext,
  type ScenarioResult,
} from '../scenario';
import {
  BASELINE_TABLE,
  type BarePgMode,
  type BarePgSettings,
  type BaselineReport,
} from './baseline-protocol';

/** The upsert baseline's table: a copy of `reservations` holding the put-applied rows as seeded. */
export async function prepareUpsertTable(
  databaseUrl: string,
  locationId: string,
  prefix: string,
): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query(`DROP TABLE IF EXISTS ${BASELINE_TABLE}`);
    await client.query(`CREATE TABLE ${BASELINE_TABLE} (LIKE reservations INCLUDING ALL)`);
    // LIKE copies no storage parameters: the same fillfactor, so both tables get the same HOT updates.
    const [{ options }] = (
      await client.query<{ options: string[] | null }>(
        `SELECT reloptions AS options FROM pg_class WHERE oid = 'reservations'::regclass`,
      )
    ).rows as [{ options: string[] | null }];
    if (options !== null && options.length > 0) {
      await client.query(`ALTER TABLE ${BASELINE_TABLE} SET (${options.join(', ')})`);
    }
    await client.query(
      `INSERT INTO ${BASELINE_TABLE} SELECT * FROM reservations WHERE location_id = $1 AND external_id LIKE $2`,
      [locationId, `${prefix}-%`],
    );
    await client.query(`VACUUM ANALYZE ${BASELINE_TABLE}`);
  });
}

/** The bare-pg baseline in its own process (own event loop, like the API). */
export async function barePg(ctx: ScenarioContext, name: string, mode: BarePgMode, description: string) {
  const settings: BarePgSettings = {
    ...mode,
    databaseUrl: ctx.databaseUrl,
    connections: ctx.connections,
    durationS: ctx.durationS,
    warmupS: ctx.warmupS,
  };
  const child = startGroup(name, join(__dirname, 'bare-pg.ts'), {
    env: { PIS_BENCH_BASELINE: JSON.stringify(settings) },
    ipc: true,
  });
  const report = new Promise<BaselineReport>((resolve, reject) => {
    child.child.once('message', (message) => resolve(message as BaselineReport));
    child.child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${child.output()}`)));
  });
  try {
    const run = await measure(ctx, () => report, { baseline: { group: child.group } });
    const load = loadResult({
      mode: 'bare-pg',
      connections: ctx.connections,
      targetRate: null,
      seconds: run.value.seconds,
      samples: run.value.samples,
      outcomes: { ok: run.value.samples.length - run.value.errors, error: run.value.errors },
      transportErrors: 0,
      expected: ['ok'],
    });
    return baselineResult(name, description, { ...run, value: load }, [
      'Latency is measured in the client process around each statement (no HTTP). The run includes a warm-up that is not counted.',
    ]);
  } finally {
    await child.stop();
  }
}

/** The bare-Express baseline: the API's own answer (captured at seeding) without a database. */
export async function bareExpress(
  ctx: ScenarioContext,
  name: string,
  mode: 'put' | 'list',
  answer: string,
  request: () => autocannon.Request,
  headers: Record<string, string>,
  description: string,
) {
  const port = await freePort();
  const answerFile = join(ctx.resultsDir, `${name}.answer.json`);
  writeFileSync(answerFile, answer);
  const child = startGroup(name, join(__dirname, 'bare-express.ts'), {
    env: { PORT: String(port), PIS_BENCH_MODE: mode, PIS_BENCH_ANSWER_FILE: answerFile },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      name,
      async () => (await fetch(`${url}/`)).status === 404,
      60_000,
      () => (child.exited() ? child.output() : null),
    );
    const load = (durationS: number) =>
      runClosedLoop({
        url,
        connections: ctx.connections,
        durationS,
        headers,
        requests: [request()],
        expected: mode === 'put' ? ['200 applied'] : ['200'],
      });
    if (ctx.warmupS > 0) await load(ctx.warmupS);
    const run = await measure(ctx, () => load(ctx.durationS), { baseline: { group: child.group } });
    return baselineResult(name, description, run, [
      'Loaded by the same autocannon settings (connections, bodies) as the scenario it is the baseline of.',
    ]);
  } finally {
    await child.stop();
  }
}

function baselineResult(
  name: string,
  description: string,
  run: Measured<LoadResult>,
  notes: string[],
): ScenarioResult {
  return measuredResult({ name, apiWorkers: null, description, notes, baselines: {} }, run);
}
