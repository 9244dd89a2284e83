import { commandStatsBetween, parseCommandStats, parseCpuSeconds } from './redis-commandstats';

const before = parseCommandStats(
  [
    '# Commandstats',
    'cmdstat_evalsha:calls=100,usec=7000,usec_per_call=70.00,rejected_calls=0,failed_calls=0',
    'cmdstat_hmget:calls=50,usec=60,usec_per_call=1.20,rejected_calls=0,failed_calls=0',
    'cmdstat_client|setname:calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0',
  ].join('\r\n'),
);
const after = parseCommandStats(
  [
    'cmdstat_evalsha:calls=300,usec=21000,usec_per_call=70.00,rejected_calls=0,failed_calls=0',
    'cmdstat_hmget:calls=250,usec=300,usec_per_call=1.20,rejected_calls=0,failed_calls=0',
    'cmdstat_client|setname:calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0',
    'cmdstat_zadd:calls=10,usec=25,usec_per_call=2.50,rejected_calls=0,failed_calls=0',
  ].join('\r\n'),
);

describe('Redis INFO commandstats', () => {
  it('parses commands, subcommands included', () => {
    expect(before.get('client|setname')).toEqual({ calls: 3, usec: 12 });
  });

  it('reports what each command cost between two samples, the costliest first, idle ones left out', () => {
    expect(commandStatsBetween(before, after, 2)).toEqual([
      { command: 'evalsha', calls: 200, usec: 14000, usecPerCall: 70, callsPerSecond: 100 },
      { command: 'hmget', calls: 200, usec: 240, usecPerCall: 1.2, callsPerSecond: 100 },
      { command: 'zadd', calls: 10, usec: 25, usecPerCall: 2.5, callsPerSecond: 5 },
    ]);
  });

  it('keeps script commands below the top', () => {
    expect(commandStatsBetween(before, after, 2, 1).map((c) => c.command)).toEqual(['evalsha']);
    const cheapScripts = parseCommandStats('cmdstat_fcall:calls=1,usec=1\ncmdstat_get:calls=9,usec=90');
    expect(commandStatsBetween(new Map(), cheapScripts, 1, 1).map((c) => c.command)).toEqual(['get', 'fcall']);
  });

  it('reads the server CPU seconds from INFO cpu', () => {
    expect(parseCpuSeconds('# CPU\r\nused_cpu_sys:1.500000\r\nused_cpu_user:2.250000\r\nused_cpu_sys_children:9.0\r\n')).toBe(3.75);
  });
});
