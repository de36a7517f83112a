import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** One sample line of the Prometheus text format: `name{label="value",...} number`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function samples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const m = LINE.exec(line);
    if (m === null) return [];
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(LABEL)) labels[key!] = value!;
    return [{ name: m[1]!, labels, value: Number(m[3]) }];
  });
}

/** The sum of every series of `name` whose labels include `labels`; undefined when there is none. */
export function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples(text).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, s) => sum + s.value, 0);
}

/** Debian's `prometheus` package puts Prometheus's linter here. */
export const PROMTOOL = process.env['PIS_PROMTOOL'] ?? '/usr/bin/promtool';

/**
 * What `promtool check metrics` says of a scrape: its exit code and its complaints (the
 * linter Prometheus's maintainers use for names, types, suffixes and help texts).
 */
export function promtoolCheck(text: string): { code: number | null; problems: string } {
  if (!existsSync(PROMTOOL)) {
    throw new Error(
      `no promtool at ${PROMTOOL}: install Debian's package (apt-get update && apt-get install -y prometheus) or set PIS_PROMTOOL`,
    );
  }
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { code: run.status, problems: `${run.stdout}${run.stderr}`.trim() };
}
