import type { Bucket } from './stats';

const W = 760;
const H = 300;
const PAD = { left: 56, right: 16, top: 30, bottom: 36 };

export interface ChartScale {
  maxX: number;
  maxY: number;
  x(ms: number): number;
  y(value: number): number;
}

/**
 * The scale of a latency chart: x from 0 to the end of the last bucket, y from 0 to a round
 * number at or above the highest p99 (at least 1 ms), both mapped into the plot area.
 */
export function chartScale(buckets: readonly Bucket[], widthMs: number): ChartScale {
  const maxX = Math.max(widthMs, ...buckets.map((b) => b.atMs + widthMs));
  const maxY = niceCeil(Math.max(1, ...buckets.map((b) => b.p99)));
  return {
    maxX,
    maxY,
    x: (ms) => PAD.left + (ms / maxX) * (W - PAD.left - PAD.right),
    y: (v) => H - PAD.bottom - (Math.min(v, maxY) / maxY) * (H - PAD.top - PAD.bottom),
  };
}

/** A small self-contained SVG line chart of p50 and p99 latency per bucket (drawn at bucket centres). */
export function latencyChart(title: string, buckets: readonly Bucket[], widthMs = 250): string {
  const s = chartScale(buckets, widthMs);
  const line = (pick: (b: Bucket) => number) =>
    buckets
      .map(
        (b, i) => `${i === 0 ? 'M' : 'L'}${s.x(b.atMs + widthMs / 2).toFixed(1)},${s.y(pick(b)).toFixed(1)}`,
      )
      .join(' ');
  const fractions = [0, 0.25, 0.5, 0.75, 1];
  const yTicks = fractions.map((f) =>
    [
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${s.y(f * s.maxY)}" y2="${s.y(f * s.maxY)}" stroke="#e5e5e5"/>`,
      `<text x="${PAD.left - 6}" y="${s.y(f * s.maxY) + 4}" text-anchor="end">${fmt(f * s.maxY)}</text>`,
    ].join(''),
  );
  const xTicks = fractions.map(
    (f) =>
      `<text x="${s.x(f * s.maxX)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${((f * s.maxX) / 1000).toFixed(1)} s</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${PAD.left}" y="18" font-size="13">${escapeXml(title)}: latency (ms) per ${widthMs} ms</text>`,
    ...yTicks,
    ...xTicks,
    `<path d="${line((b) => b.p99)}" fill="none" stroke="#d62728" stroke-width="1.5"/>`,
    `<path d="${line((b) => b.p50)}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>`,
    `<text x="${W - PAD.right - 80}" y="18" fill="#1f77b4">p50</text>`,
    `<text x="${W - PAD.right - 40}" y="18" fill="#d62728">p99</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** The smallest 1, 2 or 5 times a power of ten at or above `v` (v > 0). */
export function niceCeil(v: number): number {
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * power).find((c) => c >= v * (1 - 1e-12)) ?? 10 * power;
}

const fmt = (v: number) => (v >= 10 ? v.toFixed(0) : v.toFixed(1));
const ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' };
export const escapeXml = (s: string): string => s.replace(/[<>&"]/g, (c) => ESCAPES[c]!);
