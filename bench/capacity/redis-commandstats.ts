export interface CommandStat {
  calls: number;
  usec: number;
}

export interface RedisCommandFigure {
  command: string;
  calls: number;
  usec: number;
  usecPerCall: number;
  callsPerSecond: number;
}

/** Lua scripts and functions: BullMQ runs most of its queue operations as scripts (EVALSHA). */
export const SCRIPT_COMMANDS = ['evalsha', 'eval', 'evalsha_ro', 'eval_ro', 'fcall', 'fcall_ro'];

/** `cmdstat_evalsha:calls=3,usec=210,usec_per_call=70.00,...` lines of `INFO commandstats`, by command. */
export function parseCommandStats(info: string): Map<string, CommandStat> {
  const stats = new Map<string, CommandStat>();
  for (const line of info.split(/\r?\n/)) {
    const m = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (m) stats.set(m[1]!, { calls: Number(m[2]), usec: Number(m[3]) });
  }
  return stats;
}

/** `used_cpu_sys` + `used_cpu_user` of `INFO cpu`, in seconds. */
export function parseCpuSeconds(info: string): number {
  const field = (name: string): number => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_sys') + field('used_cpu_user');
}

/**
 * What each command cost between two samples, the costliest first: the `top` by usec plus every
 * script command that ran. A command that first appears in `after` counts from zero.
 */
export function commandStatsBetween(
  before: Map<string, CommandStat>,
  after: Map<string, CommandStat>,
  seconds: number,
  top = 12,
): RedisCommandFigure[] {
  const figures: RedisCommandFigure[] = [];
  for (const [command, end] of after) {
    const start = before.get(command) ?? { calls: 0, usec: 0 };
    const calls = end.calls - start.calls;
    const usec = end.usec - start.usec;
    if (calls <= 0) continue;
    figures.push({
      command,
      calls,
      usec,
      usecPerCall: Math.round((usec / calls) * 100) / 100,
      callsPerSecond: Math.round((calls / seconds) * 10) / 10,
    });
  }
  figures.sort((a, b) => b.usec - a.usec);
  return figures.filter((f, i) => i < top || SCRIPT_COMMANDS.includes(f.command));
}
