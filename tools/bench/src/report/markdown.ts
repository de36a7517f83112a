import type { ScenarioResult } from '../scenario';
import type { Target } from './targets';

export interface RunInfo {
  command: string;
  startedAt: string;
  machine: string;
  apiWorkers: number;
  durationS: number;
  connections: number;
}

/** The short markdown report of one run: targets, one table row per scenario, ratios, details. */
export function markdownReport(info: RunInfo, results: ScenarioResult[], targets: Target[]): string {
  const lines: string[] = [
    `# Benchmark report (${info.startedAt})`,
    '',
    `Command: \`${info.command}\``,
    '',
    `Machine: ${info.machine}. API_WORKERS=${info.apiWorkers}; ${info.connections} connections; ${info.durationS} s per scenario. ` +
      'The load generator, PostgreSQL, Redis, the API and the worker all share this machine: CPU columns say who used it.',
    '',
    '## Targets',
    '',
    '| target | goal | measured | result |',
    '|---|---|---|---|',
    ...targets.map(
      (t) => `| ${t.what} | ${t.goal} | ${t.measured} | ${t.pass ? 'PASS' : 'MISS'} (${t.margin}) |`,
    ),
    '',
    '## Scenarios',
    '',
    '| scenario | req/s | p50 ms | p90 ms | p99 ms | errors | API RSS MiB (largest proc) | worker RSS MiB | CPU cores api / worker / pg / redis / bench |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(row),
    '',
  ];
  const barePg = results.find((r) => r.name === 'baseline-bare-pg')?.load?.rps;
  const bareExpress = results.find((r) => r.name === 'baseline-bare-express')?.load?.rps;
  if (barePg || bareExpress) {
    lines.push(
      '## Ratios to the baselines (throughput)',
      '',
      '| scenario | / bare-pg | / bare-express |',
      '|---|---|---|',
    );
    for (const r of results.filter((x) => x.load && !x.name.startsWith('baseline'))) {
      const ratio = (base?: number) => (base ? (r.load!.rps / base).toFixed(2) : '-');
      lines.push(`| ${r.name} | ${ratio(barePg)} | ${ratio(bareExpress)} |`);
    }
    lines.push('');
  }
  for (const r of results) {
    lines.push(`### ${r.name}`, '', r.description, '');
    if (r.load) lines.push(`Statuses: ${JSON.stringify(r.load.statuses)}`, '');
    for (const [name, value] of Object.entries(r.metrics)) lines.push(`- ${name}: ${value}`);
    if (Object.keys(r.metrics).length > 0) lines.push('');
    for (const note of r.notes) lines.push(note, '');
    if (r.timeline.length > 0) lines.push(`![${r.name} latency over time](${r.name}.svg)`, '');
  }
  return lines.join('\n');
}

function row(r: ScenarioResult): string {
  const l = r.load;
  const res = r.resources;
  const cpu = ['api', 'worker', 'postgres', 'redis', 'bench'].map((k) => res[k]?.cpuCores ?? '-').join(' / ');
  const rate = l ? String(l.rps) : String(r.metrics['deliveries per second (burst)'] ?? '-');
  const lat = l?.latency ?? {
    p50: r.metrics['commit-to-receipt p50 ms'],
    p90: r.metrics['commit-to-receipt p90 ms'],
    p99: r.metrics['commit-to-receipt p99 ms'],
  };
  return `| ${r.name} | ${rate} | ${lat.p50 ?? '-'} | ${lat.p90 ?? '-'} | ${lat.p99 ?? '-'} | ${l?.errors ?? 0} | ${res.api?.peakRssMiB ?? '-'} (${res.api?.peakProcessRssMiB ?? '-'}) | ${res.worker?.peakRssMiB ?? '-'} | ${cpu} |`;
}
