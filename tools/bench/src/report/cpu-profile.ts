import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) this summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time, ms, idle excluded. */
  busyMs: number;
  idleMs: number;
  /** Self time by package or kind (`typeorm`, `@pis/http`, `node internals`, `GC`...), ms. */
  byCategory: Record<string, number>;
  /** Self time by function (`name (file:line)`), ms. */
  byFunction: Record<string, number>;
}

/** Where a frame's code lives: the npm package, the workspace package, Node itself, or a V8 pseudo-frame. */
export function categoryOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return 'native (outside JS)';
    if (functionName === '(idle)') return 'idle';
    return `native ${functionName}`.trim();
  }
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = url.slice(modules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.startsWith('node:')) return 'node internals';
  const workspace = /\/(packages|apps|tools)\/([^/]+)\//.exec(url);
  if (workspace)
    return workspace[1] === 'packages' ? `@pis/${workspace[2]}` : `${workspace[1]}/${workspace[2]}`;
  return url;
}

/**
 * Self time per package and function. `fromMs` leaves out the samples of the profile's first
 * milliseconds (start-up and warm-up, when only the steady state is wanted).
 */
export function summarizeProfile(profile: CpuProfile, fromMs = 0): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const summary: ProfileSummary = { busyMs: 0, idleMs: 0, byCategory: {}, byFunction: {} };
  let elapsedMs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    elapsedMs += ms;
    if (!node || ms <= 0 || elapsedMs < fromMs) return;
    const { url, functionName, lineNumber } = node.callFrame;
    const category = categoryOf(url, functionName);
    if (category === 'idle') {
      summary.idleMs += ms;
      return;
    }
    summary.busyMs += ms;
    summary.byCategory[category] = (summary.byCategory[category] ?? 0) + ms;
    const file = url.split('/').slice(-2).join('/');
    const fn = url ? `${functionName || '(anonymous)'} (${file}:${lineNumber + 1})` : functionName;
    summary.byFunction[fn] = (summary.byFunction[fn] ?? 0) + ms;
  });
  return summary;
}

export function mergeSummaries(summaries: ProfileSummary[]): ProfileSummary {
  const merged: ProfileSummary = { busyMs: 0, idleMs: 0, byCategory: {}, byFunction: {} };
  for (const s of summaries) {
    merged.busyMs += s.busyMs;
    merged.idleMs += s.idleMs;
    for (const [k, v] of Object.entries(s.byCategory)) merged.byCategory[k] = (merged.byCategory[k] ?? 0) + v;
    for (const [k, v] of Object.entries(s.byFunction)) merged.byFunction[k] = (merged.byFunction[k] ?? 0) + v;
  }
  return merged;
}

/** Every profile in `dir` summed up (each from `fromMs` on); null when there is none. */
export function summarizeProfileDir(
  dir: string,
  fromMs = 0,
): { files: number; summary: ProfileSummary } | null {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    return null;
  }
  if (files.length === 0) return null;
  const summaries = files.map((f) =>
    summarizeProfile(JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile, fromMs),
  );
  return { files: files.length, summary: mergeSummaries(summaries) };
}

/** The `n` largest entries as [name, share of busy time]. */
export function top(entries: Record<string, number>, busyMs: number, n: number): [string, number][] {
  return Object.entries(entries)
    .sort(([, a], [, b]) => b - a)
    .slice(0, n)
    .map(([name, ms]) => [name, busyMs > 0 ? ms / busyMs : 0]);
}
