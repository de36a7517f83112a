import type { ScenarioResult } from '../scenario';

export interface Target {
  what: string;
  goal: string;
  measured: string;
  pass: boolean;
  /** How far from the goal, in words (for a miss) or the headroom (for a pass). */
  margin: string;
}

const find = (results: ScenarioResult[], name: string) => results.find((r) => r.name === name);
const pct = (x: number) => `${Math.round(x * 100)} %`;

/** The targets of issue 5, checked against one run's results. */
export function checkTargets(results: ScenarioResult[]): Target[] {
  const targets: Target[] = [];
  const applied = find(results, 'put-applied');
  const barePg = find(results, 'baseline-bare-pg');
  if (applied?.load && barePg?.load) {
    const ratio = applied.load.rps / barePg.load.rps;
    targets.push({
      what: 'put-applied throughput vs bare-pg',
      goal: '≥ 0.70',
      measured: `${ratio.toFixed(2)} (${applied.load.rps} vs ${barePg.load.rps} req/s)`,
      pass: ratio >= 0.7,
      margin: ratio >= 0.7 ? `${pct(ratio / 0.7 - 1)} above` : `${pct(1 - ratio / 0.7)} below`,
    });
  }
  const half = find(results, 'put-applied-half-rate');
  if (half?.load)
    targets.push(upTo('put-applied p99 at half the maximum rate', half.load.latency.p99, 25, 'ms'));
  const list = find(results, 'list-window-half-rate');
  if (list?.load) {
    targets.push(
      upTo('list-window p99 at half the maximum rate (1M reservations)', list.load.latency.p99, 15, 'ms'),
    );
  }
  const hooks = find(results, 'webhook-pipeline');
  if (hooks) {
    const rate = Number(hooks.metrics['deliveries per second (burst)']);
    targets.push({
      what: 'webhook-pipeline sustained deliveries',
      goal: '≥ 1000 /s',
      measured: `${rate} /s`,
      pass: rate >= 1000,
      margin: rate >= 1000 ? `${pct(rate / 1000 - 1)} above` : `${pct(1 - rate / 1000)} below`,
    });
    targets.push(
      upTo(
        'webhook commit-to-receipt p99 at 500 events/s',
        Number(hooks.metrics['commit-to-receipt p99 ms']),
        250,
        'ms',
      ),
    );
  }
  for (const service of ['api', 'worker']) {
    const peak = Math.max(0, ...results.map((r) => r.resources[service]?.peakProcessRssMiB ?? 0));
    if (peak > 0) targets.push(upTo(`${service} peak RSS (largest process)`, peak, 200, 'MiB'));
  }
  return targets;
}

function upTo(what: string, value: number, limit: number, unit: string): Target {
  return {
    what,
    goal: `≤ ${limit} ${unit}`,
    measured: `${value} ${unit}`,
    pass: value <= limit,
    margin: value <= limit ? `${pct(1 - value / limit)} headroom` : `${pct(value / limit - 1)} over`,
  };
}
