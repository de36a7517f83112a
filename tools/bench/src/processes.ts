import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../../..');
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** A child started in its own process group, so every process it forks can be measured and killed. */
export interface Service {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts an entry point with `node` itself (no wrapper that would swallow signals): a built
 * bundle (`.js`) as production runs it, or TypeScript through `--import tsx`.
 */
export function startService(
  name: string,
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Service {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return {
    name,
    child,
    output: () => output,
    stop: () => stopGroup(child),
  };
}

/** SIGTERM to the group, SIGKILL after 10 s. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

interface ProcStat {
  pid: number;
  comm: string;
  pgid: number;
  cpuTicks: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is state (field 3); pgrp is field 5, utime 14, stime 15.
    return { pid, comm, pgid: Number(fields[2]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function allStats(): ProcStat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== null);
}

/** Which processes a name stands for: a service's process group, or every process with a command name. */
export type ProcessSelector = { group: number } | { comm: string } | { pid: number };

function selects(selector: ProcessSelector, stat: ProcStat): boolean {
  if ('group' in selector) return stat.pgid === selector.group;
  if ('comm' in selector) return stat.comm === selector.comm;
  return stat.pid === selector.pid;
}

export interface ResourceUsage {
  /** Peak of the summed RSS of the selected processes, in MiB (largest single process too). */
  peakRssMiB: number;
  peakProcessRssMiB: number;
  /** CPU time used during the window, in cores (1.0 = one core busy all the time). */
  cpuCores: number;
}

/**
 * Samples RSS and CPU of named process sets every `intervalMs` while a scenario runs. RSS is
 * the peak over the samples; CPU is the utime+stime each process used between the start
 * (or its birth) and its last sample, so processes that start and exit during the window
 * (PostgreSQL backends of a short-lived pool, a baseline client) are counted too.
 */
export class ResourceSampler {
  private readonly peaks = new Map<string, { total: number; single: number }>();
  /** Per set: ticks of each process at the start (absent: born later, so 0) and at its last sample. */
  private readonly firstTicks = new Map<string, Map<number, number>>();
  private readonly lastTicks = new Map<string, Map<number, number>>();
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;

  constructor(private readonly selectors: Record<string, ProcessSelector>) {}

  start(intervalMs = 250): void {
    this.startedAt = performance.now();
    const stats = allStats();
    for (const [name, selector] of Object.entries(this.selectors)) {
      this.firstTicks.set(
        name,
        new Map(stats.filter((s) => selects(selector, s)).map((s) => [s.pid, s.cpuTicks])),
      );
      this.lastTicks.set(name, new Map());
      this.peaks.set(name, { total: 0, single: 0 });
    }
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): Record<string, ResourceUsage> {
    if (this.timer) clearInterval(this.timer);
    this.sample();
    const seconds = (performance.now() - this.startedAt) / 1000;
    const usage: Record<string, ResourceUsage> = {};
    for (const name of Object.keys(this.selectors)) {
      const first = this.firstTicks.get(name)!;
      const ticks = sum([...this.lastTicks.get(name)!].map(([pid, last]) => last - (first.get(pid) ?? 0)));
      const peak = this.peaks.get(name)!;
      usage[name] = {
        peakRssMiB: round(peak.total / 2 ** 20),
        peakProcessRssMiB: round(peak.single / 2 ** 20),
        cpuCores: round(ticks / CLOCK_TICKS / seconds, 2),
      };
    }
    return usage;
  }

  private sample(): void {
    const stats = allStats();
    for (const [name, selector] of Object.entries(this.selectors)) {
      const mine = stats.filter((s) => selects(selector, s));
      const last = this.lastTicks.get(name)!;
      for (const s of mine) last.set(s.pid, s.cpuTicks);
      const rss = mine.map((s) => rssBytes(s.pid));
      const peak = this.peaks.get(name)!;
      peak.total = Math.max(peak.total, sum(rss));
      peak.single = Math.max(peak.single, ...rss, 0);
    }
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
