import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Resident memory in MB, from /proc. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Pids of every process whose command name is `name` (postgres, redis-server). */
export function pidsOf(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds per pid of every process named `name`, for `groupCpuSince`. */
export function cpuSnapshot(name: string): Map<number, number> {
  return new Map(pidsOf(name).map((pid) => [pid, cpuSeconds(pid)]));
}

/**
 * CPU seconds that processes named `name` used since `before` was taken: processes started in
 * between count from zero (Postgres forks a backend per connection); ones that exited are missed,
 * so this is a lower bound when connections churn.
 */
export function groupCpuSince(name: string, before: Map<number, number>): number {
  return pidsOf(name).reduce((sum, pid) => sum + cpuSeconds(pid) - (before.get(pid) ?? 0), 0);
}
