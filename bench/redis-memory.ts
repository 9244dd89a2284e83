import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import IORedis from 'ioredis';
import { MonitorScheduler, type SchedulableMonitor } from '@uptime/queues';
import { aCheckConfig } from '@uptime/testing';
import { redisFootprint } from './memory/redis-footprint';

/**
 * pnpm bench:redis-memory [--monitors 10000] [--interval 60]
 * Schedules N monitors as the API does (a job scheduler with its template, the version hash, the
 * next check waiting as a delayed job) under a prefix of its own, reads every key's
 * `MEMORY USAGE` and prints the bytes per monitor by kind of key; then deletes the prefix. A
 * memory figure: valid on a busy machine and a shared Redis (docs/capacity.md).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { monitors: { type: 'string', default: '10000' }, interval: { type: 'string', default: '60' } },
  });
  const monitors = Number(values.monitors);
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const prefix = `uptime_redis_memory_${randomBytes(3).toString('hex')}`;
  const scheduler = new MonitorScheduler(redis, prefix);
  try {
    const usedBefore = await usedMemory(redis);
    for (let start = 1; start <= monitors; start += 500) {
      const ids = Array.from({ length: Math.min(500, monitors - start + 1) }, (_, k) => start + k);
      await Promise.all(ids.map((id) => scheduler.schedule(aTypicalMonitor(id, Number(values.interval)))));
    }
    const usedAfter = await usedMemory(redis);
    const footprint = await redisFootprint(redis, prefix);
    console.log(`${monitors} monitors at ${values.interval} s, prefix ${prefix}`);
    const rows = Object.entries(footprint.byKind).sort((a, b) => b[1].bytes - a[1].bytes);
    for (const [kind, { keys, bytes }] of rows) {
      console.log(`${kind.padEnd(32)} ${String(keys).padStart(7)} keys ${(bytes / monitors).toFixed(1).padStart(8)} B/monitor`);
    }
    console.log(
      `${'total (MEMORY USAGE)'.padEnd(32)} ${String(footprint.keys).padStart(7)} keys ${(footprint.bytes / monitors).toFixed(1).padStart(8)} B/monitor`,
    );
    console.log(
      `${'INFO used_memory delta'.padEnd(32)} ${''.padStart(12)} ${((usedAfter - usedBefore) / monitors).toFixed(1).padStart(8)} B/monitor (shared Redis: other clients move it)`,
    );
    console.log(
      JSON.stringify({
        monitors,
        intervalSeconds: Number(values.interval),
        bytesPerMonitor: Math.round(footprint.bytes / monitors),
        usedMemoryDeltaPerMonitor: Math.round((usedAfter - usedBefore) / monitors),
        byKind: footprint.byKind,
      }),
    );
  } finally {
    await scheduler.close();
    await deletePrefix(redis, prefix);
    await redis.quit();
  }
}

/** A monitor as a user creates it: an HTTPS URL of typical length and the API's defaults. */
function aTypicalMonitor(id: number, intervalSeconds: number): SchedulableMonitor {
  return { ...aCheckConfig(`https://status.example-company.com/health/${id}`, { timeout: 30 }), tcpSend: null, dnsRecordType: 'A', dnsResolver: null, dnsProtocol: 'udp', expectedDnsValues: [], pingCount: 3, id, configVersion: 1, checkInterval: intervalSeconds };
}

async function usedMemory(redis: IORedis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

async function deletePrefix(redis: IORedis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
