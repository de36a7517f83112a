import type { Bucket } from './stats';

const W = 720;
const H = 300;
const PAD = { left: 56, right: 16, top: 28, bottom: 36 };

/** A small self-contained SVG line chart of p50 and p99 latency per bucket over the run. */
export function latencyChart(title: string, buckets: readonly Bucket[]): string {
  const maxX = Math.max(1, ...buckets.map((b) => b.atMs));
  const maxY = niceCeil(Math.max(1, ...buckets.map((b) => b.p99)));
  const x = (ms: number) => PAD.left + (ms / maxX) * (W - PAD.left - PAD.right);
  const y = (v: number) => H - PAD.bottom - (v / maxY) * (H - PAD.top - PAD.bottom);
  const line = (pick: (b: Bucket) => number) =>
    buckets.map((b, i) => `${i === 0 ? 'M' : 'L'}${x(b.atMs).toFixed(1)},${y(pick(b)).toFixed(1)}`).join(' ');
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxY);
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxX);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">
<rect width="${W}" height="${H}" fill="white"/>
<text x="${PAD.left}" y="16" font-size="13">${escape(title)}: latency over time (ms, per 250 ms)</text>
${yTicks.map((v) => `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`).join('\n')}
${xTicks.map((v) => `<text x="${x(v)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${(v / 1000).toFixed(1)}s</text>`).join('\n')}
<path d="${line((b) => b.p99)}" fill="none" stroke="#d62728" stroke-width="1.5"/>
<path d="${line((b) => b.p50)}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>
<text x="${W - PAD.right - 90}" y="16" fill="#1f77b4">p50</text><text x="${W - PAD.right - 50}" y="16" fill="#d62728">p99</text>
</svg>
`;
}

/** The smallest 1, 2 or 5 times a power of ten at or above `v`. */
export function niceCeil(v: number): number {
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * power).find((c) => c >= v) ?? 10 * power;
}

const fmt = (v: number) => (v >= 10 ? v.toFixed(0) : v.toFixed(1));
const escape = (s: string) => s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
