import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of the CPU times in /proc (100 on every Linux this runs on). */
export const CLOCK_TICKS = 100;

export interface ProcStat {
  pid: number;
  comm: string;
  pgrp: number;
  /**
   * utime + stime + cutime + cstime, in clock ticks. Children's times count once a child
   * has been reaped, so a PostgreSQL backend that exits during a scenario does not take its
   * CPU time with it (the postmaster inherits it).
   */
  cpuTicks: number;
}

/** Parses `/proc/<pid>/stat`; the command name may hold spaces and parentheses. */
export function parseStat(pid: number, text: string): ProcStat {
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  // After ") ": state(3) ppid(4) pgrp(5) ... utime(14) stime(15) cutime(16) cstime(17)
  const fields = text.slice(close + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return { pid, comm, pgrp: field(5), cpuTicks: field(14) + field(15) + field(16) + field(17) };
}

export function readStat(pid: number): ProcStat | null {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

export function allStats(): ProcStat[] {
  const stats: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.push(stat);
  }
  return stats;
}

/** VmRSS in bytes; 0 for a process that is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Busy and total ticks of the whole machine (first line of /proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest times are already in user)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}
