import { runClosedLoop } from '../load/closed-loop';
import type { LoadResult } from '../load/outcomes';
import { runPaced } from '../load/paced';
import { measure, type Measured, type ScenarioContext } from '../scenario';

/** GETs of a path drawn afresh for every request, with one credential, answered 200. */
export interface GetLoad {
  path: () => string;
  headers: Record<string, string>;
  onResponse?: (status: number, body: string) => void;
}

/** `connections` connections, each asking again once answered: a warm-up, `onMeasure`, then the measured run. */
export async function closedLoopGets(
  ctx: ScenarioContext,
  load: GetLoad,
  onMeasure: () => void = () => undefined,
): Promise<Measured<LoadResult>> {
  const run = (durationS: number) =>
    runClosedLoop({
      url: ctx.services.baseUrl,
      connections: ctx.connections,
      durationS,
      headers: load.headers,
      expected: ['200'],
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: load.path() }),
          ...(load.onResponse ? { onResponse: load.onResponse } : {}),
        },
      ],
    });
  if (ctx.warmupS > 0) await run(ctx.warmupS);
  onMeasure();
  return measure(ctx, () => run(ctx.durationS));
}

/** Open loop at `rate` requests/s, evenly spaced (latency counts from when each was due): a warm-up, then the measured run. */
export async function pacedGets(
  ctx: ScenarioContext,
  rate: number,
  load: GetLoad,
): Promise<Measured<LoadResult>> {
  const run = (durationS: number) =>
    runPaced({
      url: ctx.services.baseUrl,
      rate,
      durationS,
      connections: ctx.connections,
      expected: ['200'],
      next: () => ({ method: 'GET', path: load.path(), headers: load.headers }),
    });
  if (ctx.warmupS > 0) await run(ctx.warmupS);
  return measure(ctx, () => run(ctx.durationS));
}
