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
