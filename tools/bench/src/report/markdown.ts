import type { PostgresInfo } from '../database';
import { ROLES, type ScenarioResult } from '../scenario';
import { top, type ProfileSummary } from './cpu-profile';
import type { Target } from './targets';

export interface RunInfo {
  command: string;
  stamp: string;
  commit: string;
  machine: string;
  cpus: number;
  node: string;
  postgres: PostgresInfo;
  loadAverageAtStart: string;
  durationS: number;
  warmupS: number;
  connections: number;
  apiWorkers: number[];
  source: string;
  workerConcurrency: string;
  listReservations: number;
  burstEvents: number;
}

export interface ProfileSection {
  title: string;
  files: number;
  summary: ProfileSummary;
}

/** File name of a result's chart, beside the report. */
export const chartFile = (r: ScenarioResult): string =>
  `${r.name}${r.apiWorkers === null ? '' : `.w${r.apiWorkers}`}.svg`;

const label = (r: ScenarioResult) => `${r.name}${r.apiWorkers === null ? '' : ` (w${r.apiWorkers})`}`;
const fixed = (x: number | undefined, digits = 2) =>
  x === undefined || Number.isNaN(x) ? '-' : x.toFixed(digits);

/** The markdown report of one run: targets, results with ratios and CPU shares, signals, details. */
export function markdownReport(
  info: RunInfo,
  results: readonly ScenarioResult[],
  targets: readonly Target[],
  profiles: readonly ProfileSection[],
  chartPrefix = '',
): string {
  const out: string[] = [];
  const line = (...parts: string[]) => out.push(...parts);
  const settings = Object.entries(info.postgres.settings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  line(
    `# Benchmark report ${info.stamp}`,
    '',
    `- command: \`${info.command}\` at commit \`${info.commit}\``,
    `- machine: ${info.machine}; Node ${info.node}; load average at start ${info.loadAverageAtStart}`,
    `- PostgreSQL ${info.postgres.version} (${settings}); apps run from ${info.source}`,
    `- ${info.durationS} s per measured run after a ${info.warmupS} s warm-up, ${info.connections} connections; API_WORKERS ${info.apiWorkers.join(' and ')} (wN below); worker concurrency ${info.workerConcurrency}; list location ${info.listReservations.toLocaleString('en')} reservations; webhook burst ${info.burstEvents.toLocaleString('en')} events`,
    '- The load generator (this process), PostgreSQL, Redis, the API and the worker share the machine: the CPU columns say who used it (cores: 1.00 = one core all the time; `other` = everything else on the machine).',
    '',
    '## Targets',
    '',
    '| target | API_WORKERS | goal | measured | result |',
    '|---|---|---|---|---|',
    ...targets.map(
      (t) =>
        `| ${t.what} | ${t.apiWorkers ?? '-'} | ${t.goal} | ${t.measured} | **${t.pass ? 'PASS' : 'MISS'}** (${t.margin}) |`,
    ),
    '',
    '## Results',
    '',
    'Throughput ratios divide by the baseline of the same kind measured in this run (`pg`: the bare-pg statement, `express`: the bare Express handler).',
    '',
    `| scenario | req/s | p50 ms | p90 ms | p99 ms | errors | expected refusals | / pg | / express | API RSS MiB (largest / all) | worker RSS MiB | CPU cores ${ROLES.join(' / ')} / other |`,
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => resultRow(r, results)),
    '',
    '## What bounds each scenario',
    '',
    'Signals measured during each run: cores used per role, the machine, and what the busy PostgreSQL backends of the benchmark database were doing (share of samples).',
    '',
    ...results.map((r) => `- **${label(r)}**: ${signals(r, info.cpus)}`),
    '',
    '## Memory at peak',
    '',
    '| scenario | role | peak RSS, largest process MiB | processes | V8 heap total / used MiB | external MiB |',
    '|---|---|---|---|---|---|',
    ...results
      .filter((r) => r.apiWorkers !== null)
      .flatMap((r) =>
        (['api', 'worker'] as const).map((role) => {
          const u = r.usage.roles[role];
          const h = u?.heapAtPeakMiB;
          return `| ${label(r)} | ${role} | ${u?.peakProcessRssMiB ?? '-'} | ${u?.processes ?? '-'} | ${h ? `${h.heapTotal} / ${h.heapUsed}` : '-'} | ${h?.external ?? '-'} |`;
        }),
      ),
    '',
  );
  if (profiles.length > 0) {
    line('## CPU profiles', '');
    for (const p of profiles) line(...profileSection(p));
  }
  line('## Details', '');
  for (const r of results) line(...details(r, chartPrefix));
  return out.join('\n');
}

function ratio(r: ScenarioResult, results: readonly ScenarioResult[], kind: 'pg' | 'express'): string {
  const name = r.baselines[kind];
  const base = results.find((b) => b.name === name)?.load?.rps;
  return r.load && base ? fixed(r.load.rps / base) : '-';
}

function resultRow(r: ScenarioResult, results: readonly ScenarioResult[]): string {
  const l = r.load;
  const roles = r.usage.roles;
  const cpu = [...ROLES.map((role) => fixed(roles[role]?.cpuCores)), fixed(r.usage.otherCores)].join(' / ');
  const api = roles.api ? `${roles.api.peakProcessRssMiB} / ${roles.api.peakRssMiB}` : '-';
  if (!l) {
    const m = r.metrics;
    const rate = m['deliveries/s (all, from the first commit)'] ?? m['commit rate achieved /s'] ?? '-';
    const [p50, p90, p99] = ['p50', 'p90', 'p99'].map((p) => m[`commit-to-receipt ${p} ms`] ?? '-');
    return `| ${label(r)} | ${rate} events/s | ${p50} | ${p90} | ${p99} | - | - | - | - | ${api} | ${roles.worker?.peakProcessRssMiB ?? '-'} | ${cpu} |`;
  }
  const rate = l.targetRate ? `${l.rps} (asked ${l.targetRate})` : String(l.rps);
  return `| ${label(r)} | ${rate} | ${l.latency.p50} | ${l.latency.p90} | ${l.latency.p99} | ${l.errors}${l.unexpected ? ` (+${l.unexpected} unexpected 2xx)` : ''} | ${l.expectedRefusals} | ${ratio(r, results, 'pg')} | ${ratio(r, results, 'express')} | ${api} | ${roles.worker?.peakProcessRssMiB ?? '-'} | ${cpu} |`;
}

/** One line of facts about what limited a run. */
export function signals(r: ScenarioResult, cpus: number): string {
  const parts: string[] = [];
  const u = r.usage;
  parts.push(
    `machine ${fixed(u.machineCores)} of ${cpus} cores busy${u.machineCores >= cpus * 0.9 ? ' (saturated)' : ''}`,
  );
  const busiest = Object.entries(u.roles)
    .filter(([, v]) => v.cpuCores >= 0.05)
    .sort(([, a], [, b]) => b.cpuCores - a.cpuCores)
    .map(([role, v]) => {
      const nodes = role === 'api' && r.apiWorkers && r.apiWorkers > 1 ? r.apiWorkers : 1;
      const saturated =
        (role === 'api' || role === 'worker' || role === 'bench') && v.cpuCores / nodes >= 0.85;
      return `${role} ${fixed(v.cpuCores)}${saturated ? ` (${nodes > 1 ? `${nodes} event loops` : 'its event loop'} near 100 %)` : ''}`;
    });
  if (busiest.length > 0) parts.push(`cores: ${busiest.join(', ')}`);
  if (u.otherCores >= 0.2) parts.push(`other processes ${fixed(u.otherCores)} cores (not ours)`);
  if (r.waits && r.waits.samples > 0) {
    const events = r.waits.events
      .slice(0, 4)
      .map((e) => `${e.event} ${Math.round(e.share * 100)} %`)
      .join(', ');
    parts.push(
      `PostgreSQL: ${fixed(r.waits.meanActive, 1)} backends busy on average${events ? ` (${events})` : ''}, this database's backends ${fixed(r.waits.databaseCores)} cores`,
    );
    const background = [
      r.waits.checkpoints > 0 ? `${r.waits.checkpoints} checkpoint(s) began` : '',
      r.waits.autovacuumShare > 0
        ? `autovacuum ran in ${Math.round(r.waits.autovacuumShare * 100)} % of samples`
        : '',
    ].filter(Boolean);
    if (background.length > 0) parts.push(`PostgreSQL background: ${background.join(', ')}`);
  }
  return parts.join('; ');
}

function profileSection(p: ProfileSection): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  return [
    `### ${p.title}`,
    '',
    `${p.files} profile(s), ${(p.summary.busyMs / 1000).toFixed(1)} s busy (idle excluded) over the whole process life, all its scenarios together.`,
    '',
    '| self time by package | share |',
    '|---|---|',
    ...top(p.summary.byCategory, p.summary.busyMs, 12).map(([name, share]) => `| ${name} | ${pct(share)} |`),
    '',
    '| self time by function | share |',
    '|---|---|',
    ...top(p.summary.byFunction, p.summary.busyMs, 15).map(
      ([name, share]) => `| \`${name}\` | ${pct(share)} |`,
    ),
    '',
  ];
}

function details(r: ScenarioResult, chartPrefix: string): string[] {
  const lines = [`### ${label(r)}`, '', r.description, ''];
  if (r.load) {
    const outcomes = Object.entries(r.load.outcomes)
      .map(([o, n]) => `\`${o}\` ${n}`)
      .join(', ');
    lines.push(
      `${r.load.mode}, ${r.load.requests} requests in ${r.load.seconds} s; outcomes: ${outcomes || 'none'}${r.load.transportErrors ? `; ${r.load.transportErrors} connection errors or timeouts` : ''}; latency mean ${r.load.latency.mean} ms, max ${r.load.latency.max} ms`,
      '',
    );
  }
  for (const [name, value] of Object.entries(r.metrics)) lines.push(`- ${name}: ${value}`);
  if (Object.keys(r.metrics).length > 0) lines.push('');
  for (const note of r.notes) lines.push(note, '');
  if (r.timeline.length > 0) lines.push(`![${label(r)}](${chartPrefix}${chartFile(r)})`, '');
  return lines;
}
