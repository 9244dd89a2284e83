import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { createRedisConnection, publishLiveEvents, type LiveCheck, type LiveEvent } from '../packages/queues/src';

/**
 * The cost of live updates (docs/web.md, "Live updates"): N open Server-Sent Events streams on
 * one api process while checks are published as the check-worker publishes them (one `checks`
 * event per organization per batch, a batch every 200 ms). Reads the api process's CPU and
 * resident memory from /proc, idle, with the streams open, and while the checks flow, and how
 * late each event reaches a stream. Prints a table and a JSON line. A benchmark, not a test.
 *
 *   pnpm bench:live [-- --streams 1000 --checks-per-second 1000 --organizations 100 --seconds 20]
 */
const { values } = parseArgs({
  // pnpm passes the `--` before the options on.
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    streams: { type: 'string', default: '1000' },
    'checks-per-second': { type: 'string', default: '1000' },
    organizations: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
  },
});
const STREAMS = Number(values.streams);
const RATE = Number(values['checks-per-second']);
const ORGANIZATIONS = Number(values.organizations);
const SECONDS = Number(values.seconds);
const BATCH_MS = 200;
/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK = 100;

interface Started {
  url: string;
  prefix: string;
  callers: { auth: string; organization_id: number }[];
}

/** CPU seconds (user + system) and resident MB of a process, from /proc. */
function usage(pid: number): { cpuSeconds: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICK;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuSeconds, rssMb: rssKb / 1024 };
}

async function measure(pid: number, seconds: number): Promise<{ cpuPercent: number; rssMb: number }> {
  const before = usage(pid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = usage(pid);
  return { cpuPercent: ((after.cpuSeconds - before.cpuSeconds) / seconds) * 100, rssMb: after.rssMb };
}

function openStreams(started: Started, latencies: number[]): Promise<http.ClientRequest[]> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  let ready = 0;
  return new Promise((resolve, reject) => {
    void (async () => {
      for (let i = 0; i < STREAMS; i++) {
        // In waves, as pages open over time: a thousand token look-ups at once would queue on the pool.
        if (i > 0 && i % 100 === 0) await new Promise((r) => setTimeout(r, 250));
        const caller = started.callers[i % started.callers.length]!;
        const req = http.get(
          `${started.url}/api/v1/live`,
          { agent, headers: { Authorization: caller.auth, Accept: 'text/event-stream' } },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${i}: ${res.statusCode}`));
            res.setEncoding('utf8');
            let buffer = '';
            res.on('data', (chunk: string) => {
              buffer += chunk;
              let end: number;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                const block = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                if (block.startsWith('event: ready') && ++ready === STREAMS) resolve(requests);
                const sent = /"sent_at":(\d+)/.exec(block);
                if (block.startsWith('event: checks') && sent) latencies.push(Date.now() - Number(sent[1]));
              }
            });
          },
        );
        req.on('error', reject);
        requests.push(req);
      }
    })();
  });
}

const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function main(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/live/api-process.ts', String(ORGANIZATIONS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const started = await new Promise<Started>((resolve) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Started);
    });
  });
  const pid = child.pid!;
  const idle = await measure(pid, 5);
  const latencies: number[] = [];
  const streams = await openStreams(started, latencies);
  const open = await measure(pid, 5);

  const redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'bench-live');
  const perBatch = Math.max(1, Math.round((RATE * BATCH_MS) / 1000));
  let monitorId = 0;
  const publisher = setInterval(() => {
    const byOrganization = new Map<number, LiveEvent[]>();
    const checksOf = new Map<number, LiveCheck[]>();
    for (let i = 0; i < perBatch; i++) {
      const organization = started.callers[monitorId % started.callers.length]!.organization_id;
      const list = checksOf.get(organization) ?? [];
      list.push({
        monitor_id: ++monitorId,
        checked_at: new Date().toISOString(),
        result: 'up',
        response_time: 42,
        monitor_status: 'online',
        in_maintenance: false,
      });
      checksOf.set(organization, list);
    }
    // sent_at rides along for the bench's latency; the api relays a message as it is.
    for (const [organization, checks] of checksOf)
      byOrganization.set(organization, [{ type: 'checks', checks, sent_at: Date.now() } as LiveEvent]);
    void publishLiveEvents(redis, started.prefix, byOrganization);
  }, BATCH_MS);
  await new Promise((r) => setTimeout(r, 2000));
  latencies.length = 0;
  const flowing = await measure(pid, SECONDS);
  clearInterval(publisher);

  for (const req of streams) req.destroy();
  await redis.quit();
  child.stdin!.end();
  await new Promise((r) => child.once('exit', r));

  const result = {
    streams: STREAMS,
    organizations: ORGANIZATIONS,
    checks_per_second: RATE,
    api_cpu_percent: {
      idle: Math.round(idle.cpuPercent * 10) / 10,
      streams_open: Math.round(open.cpuPercent * 10) / 10,
      checks_flowing: Math.round(flowing.cpuPercent * 10) / 10,
    },
    api_rss_mb: { idle: Math.round(idle.rssMb), streams_open: Math.round(open.rssMb), checks_flowing: Math.round(flowing.rssMb) },
    events_received: latencies.length,
    delivery_ms: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) },
  };
  process.stdout.write(
    [
      `live streams: ${STREAMS} streams over ${ORGANIZATIONS} organizations, ${RATE} checks/s in batches every ${BATCH_MS} ms, ${SECONDS} s`,
      `| api | CPU | RSS |`,
      `|---|---|---|`,
      `| idle | ${result.api_cpu_percent.idle} % | ${result.api_rss_mb.idle} MB |`,
      `| ${STREAMS} streams open | ${result.api_cpu_percent.streams_open} % | ${result.api_rss_mb.streams_open} MB |`,
      `| and ${RATE} checks/s | ${result.api_cpu_percent.checks_flowing} % | ${result.api_rss_mb.checks_flowing} MB |`,
      `events delivered: ${result.events_received}, publish to stream p50 ${result.delivery_ms.p50} ms, p99 ${result.delivery_ms.p99} ms`,
      JSON.stringify(result),
      '',
    ].join('\n'),
  );
}

void main();
