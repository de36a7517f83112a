import type { ScenarioResult } from '../scenario';

export interface Target {
  what: string;
  /** The API_WORKERS pass it was measured in; null when the API is not involved. */
  apiWorkers: number | null;
  goal: string;
  measured: string;
  pass: boolean;
  /** How far from the goal: the shortfall of a miss, the headroom of a pass. */
  margin: string;
}

const pct = (x: number) => `${Math.round(x * 100)} %`;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** A target of the form value >= goal. */
export function atLeast(
  what: string,
  apiWorkers: number | null,
  value: number,
  goal: number,
  unit: string,
): Target {
  const pass = value >= goal;
  return {
    what,
    apiWorkers,
    goal: `≥ ${goal}${unit}`,
    measured: `${value}${unit}`,
    pass,
    margin: pass ? `${pct(value / goal - 1)} above` : `${pct(1 - value / goal)} short`,
  };
}

/** A target of the form value <= limit. */
export function atMost(
  what: string,
  apiWorkers: number | null,
  value: number,
  limit: number,
  unit: string,
): Target {
  const pass = value <= limit;
  return {
    what,
    apiWorkers,
    goal: `≤ ${limit}${unit}`,
    measured: `${value}${unit}`,
    pass,
    margin: pass ? `${pct(1 - value / limit)} headroom` : `${pct(value / limit - 1)} over`,
  };
}

/** The performance targets, checked against one run (for each API_WORKERS pass). */
export function checkTargets(results: readonly ScenarioResult[]): Target[] {
  const targets: Target[] = [];
  const find = (name: string, workers: number | null) =>
    results.find((r) => r.name === name && r.apiWorkers === workers);
  const passes = [...new Set(results.map((r) => r.apiWorkers).filter((w): w is number => w !== null))];
  const barePg = find('baseline-bare-pg-upsert', null)?.load;

  for (const w of passes) {
    const applied = find('put-applied', w)?.load;
    if (applied && barePg) {
      const ratio = Math.round((applied.rps / barePg.rps) * 100) / 100;
      const target = atLeast('put-applied throughput / bare-pg upsert', w, ratio, 0.7, '');
      targets.push({ ...target, measured: `${ratio} (${applied.rps} vs ${barePg.rps} req/s)` });
    }
    const half = find('put-applied-half-rate', w)?.load;
    if (half)
      targets.push(
        atMost(`put-applied p99 at ${half.targetRate}/s (half its maximum)`, w, half.latency.p99, 25, ' ms'),
      );
    const list = find('list-window-half-rate', w)?.load;
    if (list)
      targets.push(
        atMost(`list-window p99 at ${list.targetRate}/s (half its maximum)`, w, list.latency.p99, 15, ' ms'),
      );
  }

  const burst = results.find((r) => r.name === 'webhook-pipeline-burst');
  if (burst) {
    const rate = Number(burst.metrics['deliveries/s (all, from the first commit)']);
    targets.push(
      atLeast('webhook-pipeline deliveries/s (burst, first commit to last receipt)', null, rate, 1800, ' /s'),
    );
    const cpu = Number(burst.metrics['CPU per delivery, ms: worker + PostgreSQL (this database) + Redis']);
    if (Number.isFinite(cpu))
      targets.push(
        atMost(
          'webhook-pipeline CPU per delivery in the burst (worker + PostgreSQL + Redis)',
          null,
          cpu,
          1,
          ' ms',
        ),
      );
  }
  const paced = results.find((r) => r.name === 'webhook-pipeline-latency');
  if (paced) {
    const p99 = Number(paced.metrics['commit-to-receipt p99 ms']);
    targets.push(atMost('webhook-pipeline commit-to-receipt p99 at 500 events/s', null, p99, 60, ' ms'));
  }

  const lost = results.find((r) => r.name === 'webhook-redis-lost');
  if (lost) {
    const drained = Number(lost.metrics['last delivery after the loss, ms']);
    const limit = Number(lost.metrics['target: 1 lease + lost / burst rate, ms']);
    targets.push(
      atMost(
        'webhook jobs lost with Redis: loss to last receipt (1 lease + lost / burst rate)',
        null,
        drained,
        limit,
        ' ms',
      ),
    );
  }

  const noisy = results.find((r) => r.name === 'webhook-noisy-neighbour');
  if (noisy) {
    const ratio = Number(noisy.metrics['p99 beside / p99 alone']);
    targets.push(
      atMost('webhook noisy neighbour: p99 beside a hanging endpoint / p99 alone', null, ratio, 2, ''),
    );
  }

  const fanOutCpu = (name: string) =>
    Number(
      results.find((r) => r.name === name)?.metrics[
        'CPU per delivery, ms: worker + PostgreSQL (this database) + Redis'
      ],
    );
  const [one, hundred, ten, crowded] = ['1', '100', '10', '10-crowded'].map((n) =>
    fanOutCpu(`webhook-fan-out-${n}`),
  );
  if (one! > 0 && hundred! > 0) {
    targets.push(
      atMost(
        'webhook fan-out: CPU per delivery at 100 endpoints / at 1 endpoint',
        null,
        round2(hundred! / one!),
        1.2,
        '',
      ),
    );
  }
  if (ten! > 0 && crowded! > 0) {
    targets.push(
      atMost(
        'webhook fan-out: CPU per delivery at 10 endpoints, crowded service / few locations',
        null,
        round2(crowded! / ten!),
        1.2,
        '',
      ),
    );
  }

  // Each pass starts its own API and worker; the baselines run beside idle ones and do not count.
  for (const role of ['api', 'worker'] as const) {
    for (const w of passes) {
      const mine = results.filter((r) => r.apiWorkers === w);
      const peak = Math.max(0, ...mine.map((r) => r.usage.roles[role]?.peakProcessRssMiB ?? 0));
      if (peak > 0) targets.push(atMost(`${role} peak RSS, largest process`, w, peak, 200, ' MiB'));
    }
  }
  return targets;
}
