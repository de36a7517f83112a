import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { round } from '../report/stats';
import { allStats, CLOCK_TICKS, machineTicks, rssBytes, type ProcStat } from './proc';

/** Which processes a role stands for: a process group, every process with a command name, or one pid. */
export type ProcessSelector = { group: number } | { comm: string } | { pid: number };

function selects(selector: ProcessSelector, stat: ProcStat): boolean {
  if ('group' in selector) return stat.pgrp === selector.group;
  if ('comm' in selector) return stat.comm === selector.comm;
  return stat.pid === selector.pid;
}

/** What the memory probe (`memory-probe.ts`) last wrote for a process, in bytes. */
export interface HeapBreakdown {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface ResourceUsage {
  /** Peak over the samples of the summed RSS of the role's processes, MiB. */
  peakRssMiB: number;
  /** Peak RSS of the largest single process of the role, MiB. */
  peakProcessRssMiB: number;
  /** Processes seen at the peak. */
  processes: number;
  /** CPU time used during the window divided by its length: 1.0 = one core busy all the time. */
  cpuCores: number;
  /** The V8 view of the largest process at its peak, when the memory probe runs in it (MiB). */
  heapAtPeakMiB: { heapTotal: number; heapUsed: number; external: number } | null;
}

export interface UsageReport {
  seconds: number;
  roles: Record<string, ResourceUsage>;
  /** Cores busy on the whole machine (every process, ours or not). */
  machineCores: number;
  /** Machine cores not accounted for by the roles (other work on the machine, the kernel). */
  otherCores: number;
  cpus: number;
}

interface Peak {
  total: number;
  single: number;
  processes: number;
  heap: HeapBreakdown | null;
}

/**
 * Samples RSS of every process of each role every `intervalMs` while a scenario runs and
 * measures CPU between start and stop. RSS is the peak over the samples (so a spike between
 * two samples can be missed); CPU is exact (utime+stime from /proc).
 */
export class ResourceSampler {
  private readonly peaks = new Map<string, Peak>();
  private readonly startTicks = new Map<string, number>();
  private startMachine = { busy: 0, total: 0 };
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;

  constructor(
    private readonly selectors: Record<string, ProcessSelector>,
    private readonly cpus: number,
    private readonly memoryDir: string | null,
  ) {}

  start(intervalMs = 250): void {
    this.startedAt = performance.now();
    this.startMachine = machineTicks();
    const stats = allStats();
    for (const [role, selector] of Object.entries(this.selectors)) {
      this.startTicks.set(role, ticksOf(stats, selector));
      this.peaks.set(role, { total: 0, single: 0, processes: 0, heap: null });
    }
    this.sample(stats);
    this.timer = setInterval(() => this.sample(allStats()), intervalMs);
  }

  stop(): UsageReport {
    if (this.timer) clearInterval(this.timer);
    const stats = allStats();
    this.sample(stats);
    const seconds = (performance.now() - this.startedAt) / 1000;
    const machine = machineTicks();
    const roles: Record<string, ResourceUsage> = {};
    let accounted = 0;
    for (const [role, selector] of Object.entries(this.selectors)) {
      const ticks = Math.max(0, ticksOf(stats, selector) - this.startTicks.get(role)!);
      accounted += ticks;
      const peak = this.peaks.get(role)!;
      roles[role] = {
        peakRssMiB: round(peak.total / 2 ** 20, 1),
        peakProcessRssMiB: round(peak.single / 2 ** 20, 1),
        processes: peak.processes,
        cpuCores: round(ticks / CLOCK_TICKS / seconds),
        heapAtPeakMiB: peak.heap && {
          heapTotal: round(peak.heap.heapTotal / 2 ** 20, 1),
          heapUsed: round(peak.heap.heapUsed / 2 ** 20, 1),
          external: round(peak.heap.external / 2 ** 20, 1),
        },
      };
    }
    // /proc/stat counts every CPU: its ticks per second are cpus x CLOCK_TICKS.
    const busyCores = (machine.busy - this.startMachine.busy) / CLOCK_TICKS / seconds || 0;
    return {
      seconds: round(seconds, 1),
      roles,
      machineCores: round(busyCores),
      otherCores: round(Math.max(0, busyCores - accounted / CLOCK_TICKS / seconds)),
      cpus: this.cpus,
    };
  }

  private sample(stats: ProcStat[]): void {
    for (const [role, selector] of Object.entries(this.selectors)) {
      const members = stats.filter((s) => selects(selector, s));
      const sizes = members.map((s) => ({ pid: s.pid, rss: rssBytes(s.pid) }));
      const peak = this.peaks.get(role)!;
      const total = sizes.reduce((sum, s) => sum + s.rss, 0);
      if (total > peak.total) {
        peak.total = total;
        peak.processes = sizes.length;
      }
      const largest = sizes.reduce((a, b) => (b.rss > a.rss ? b : a), { pid: 0, rss: 0 });
      if (largest.rss > peak.single) {
        peak.single = largest.rss;
        peak.heap = this.heapOf(largest.pid) ?? peak.heap;
      }
    }
  }

  private heapOf(pid: number): HeapBreakdown | null {
    if (this.memoryDir === null) return null;
    try {
      return JSON.parse(readFileSync(join(this.memoryDir, `${pid}.json`), 'utf8')) as HeapBreakdown;
    } catch {
      return null;
    }
  }
}

function ticksOf(stats: ProcStat[], selector: ProcessSelector): number {
  return stats.filter((s) => selects(selector, s)).reduce((sum, s) => sum + s.cpuTicks, 0);
}
