import path from 'node:path';
import type { AreaTime, FunctionTime } from './cpuprofile-summary';
import type { ProfileReport } from './profile';

/** `align`: one letter per column, `l` or `r`; a last column aligned left is not padded. */
const table = (rows: string[][], align: string): string[] => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const cellOf = (cell: string, i: number, last: boolean): string =>
    align[i] === 'r' ? cell.padStart(widths[i]!) : last ? cell : cell.padEnd(widths[i]!);
  return rows.map((r) => `    ${r.map((cell, i) => cellOf(cell, i, i === r.length - 1)).join('  ')}`);
};
const num = (n: number): string => n.toLocaleString('en-US');

/** The ten largest areas but (idle), then the rest in one. */
const rollup = (areas: AreaTime[]): string => {
  const busy = areas.filter((a) => a.area !== '(idle)');
  const rest = busy.slice(10).reduce((sum, a) => sum + a.percent, 0);
  return `${busy
    .slice(0, 10)
    .map((a) => `${a.area} ${a.percent} %`)
    .join(', ')}${rest > 0 ? `, others ${rest.toFixed(1)} %` : ''}`;
};

/** The `--profile` section printed after the table: CPU by process, Redis commands, Postgres statements. */
export function formatProfileReport(r: ProfileReport): string[] {
  const out: string[] = [];
  out.push('', `Profile (${r.windowSeconds} s window; full figures in ${path.join(r.dir, 'summary.json')})`);
  out.push(
    `CPU: node --cpu-prof, a sample every ${r.intervalUs} µs of each process's main thread. Each .cpuprofile spans the process's whole life; only samples inside the window are counted here.`,
    `  % is of wall time in the window (100 % = one core busy). "self": by the function's own code (native code counts in its caller's);`,
    `  "for": node core and native time given to the innermost library on the stack. Lines in .ts files are of tsx's output, not the source.`,
    `  The sampling costs every profiled process CPU (a few % of a core at 1000 µs; --profile-interval 5000 costs less): CPU % and latencies above are inflated.`,
  );
  for (const p of r.cpu) {
    const main = p.threads.find((t) => t.thread === 'main');
    if (!main) {
      out.push(`  ${p.name}: no .cpuprofile written (the process did not exit through process.exit/graceful stop?)`);
      continue;
    }
    const s = main.summary;
    out.push(
      `  ${p.name} (pid ${p.pid}${main.windowed ? '' : `; window outside the profile: whole life of ${main.lifeSeconds} s`}): ` +
        `busy ${(s.busyMs / 1000).toFixed(1)} s of ${(s.sampledMs / 1000).toFixed(1)} s (${((s.busyMs / Math.max(s.sampledMs, 1)) * 100).toFixed(1)} %)`,
      `    self: ${rollup(s.areas)}`,
      `    for:  ${rollup(s.byLibrary)}`,
    );
    const via = (f: FunctionTime): string => (f.via ? `(for ${f.via.map((v) => `${v.area} ${Math.round(v.percent)} %`).join(', ')})` : '');
    const described = (f: FunctionTime): string => [f.functionName, f.location, via(f)].filter(Boolean).join('  ');
    out.push(
      ...table(
        [
          ['self ms', '%', 'area', 'function  location'],
          ...s.top.map((f) => [num(Math.round(f.selfMs)), f.percent.toFixed(1), f.area, described(f)]),
        ],
        'rrll',
      ),
    );
    for (const t of p.threads.filter((x) => x !== main))
      out.push(`    ${t.thread}: busy ${(t.summary.busyMs / 1000).toFixed(1)} s (${t.file})`);
  }

  const redis = r.redis;
  out.push(
    `Redis INFO commandstats (server-wide: any other client of this Redis counts too), ${redis.seconds} s: ` +
      `Redis CPU ${redis.cpuSeconds} s (${((redis.cpuSeconds / Math.max(redis.seconds, 0.001)) * 100).toFixed(0)} % of a core), ` +
      `Lua scripts (EVAL/EVALSHA/FCALL; BullMQ runs its queue operations as scripts) ${(redis.scriptUsec / 1e6).toFixed(2)} s of command time.`,
    `     A script's usec includes the commands it calls, which are also counted under their own names.`,
  );
  out.push(
    ...table(
      [
        ['command', 'calls', 'calls/s', 'usec', 'usec/call'],
        ...redis.commands.map((c) => [c.command, num(c.calls), num(c.callsPerSecond), num(c.usec), c.usecPerCall.toFixed(2)]),
      ],
      'lrrrr',
    ),
  );

  const pg = r.postgres;
  if (!pg.enabled) out.push(`Postgres: ${pg.note}.`);
  else {
    out.push(
      `Postgres pg_stat_statements (this database only), ${pg.seconds} s: ${num(pg.calls)} statements, ${num(pg.totalMs)} ms executing; top by total time:`,
    );
    out.push(
      ...table(
        [
          ['calls', 'total ms', 'mean ms', 'rows', '%', 'query'],
          ...pg.statements.map((s) => [num(s.calls), num(s.totalMs), s.meanMs.toFixed(3), num(s.rows), s.percent.toFixed(1), s.query]),
        ],
        'rrrrrl',
      ),
    );
  }
  return out;
}
