import { parseArgs } from 'node:util';
import { Queue, Worker, type Job } from 'bullmq';
import IORedis, { type Redis } from 'ioredis';
import { createLogger } from '@uptime/logger';
import {
  checkConfigOf,
  compactCheck,
  firstSlotAfter,
  JOBS,
  jobOptionsOf,
  MonitorScheduler,
  scheduleOffsetMs,
  type SchedulableMonitor,
} from '@uptime/queues';
import { aCheckConfig, startRedisServer } from '@uptime/testing';
import { MonitorJobCycle } from '../services/check-worker/src/monitor-job-cycle';

const logger = createLogger({ level: 'warn', service: 'bench-queue-cost' });

/**
 * pnpm bench:queue-cost [--monitors 10000] [--interval 10] [--window 30] [--concurrency 300]
 *
 * What the queue costs per check, apart from probing and recording: N monitors due every
 * `interval` seconds, a worker whose processor does nothing, measured over a window on a Redis
 * server of its own (so no other client moves its figures): Redis commands and CPU per check,
 * and the worker process's CPU per check. Two ways of keeping the schedule:
 *  - `job-scheduler`: what the product did before 2026-11-28: a BullMQ job scheduler per monitor;
 *    each check is a new job, taken, the next one added by the scheduler, then finished and deleted.
 *  - `monitor-job`: what it does now (packages/queues/src/monitor-scheduler.ts): one job per
 *    monitor for as long as its schedule; after each check the worker records its next planned
 *    time in it and moves it back to the delayed set (MonitorJobCycle, monitor-job-cycle.ts).
 * CPU figures want a quiet machine; command counts do not (docs/capacity.md).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      monitors: { type: 'string', default: '10000' },
      interval: { type: 'string', default: '10' },
      window: { type: 'string', default: '30' },
      concurrency: { type: 'string', default: '300' },
    },
  });
  const settings = {
    monitors: Number(values.monitors),
    intervalMs: Number(values.interval) * 1000,
    windowMs: Number(values.window) * 1000,
    concurrency: Number(values.concurrency),
  };
  for (const pattern of ['job-scheduler', 'monitor-job'] as const) {
    const server = await startRedisServer();
    try {
      const figures = await measure(pattern, server.url, settings);
      console.log(JSON.stringify({ pattern, ...settings, ...figures }));
    } finally {
      await server.stop();
    }
  }
}

interface Settings {
  monitors: number;
  intervalMs: number;
  windowMs: number;
  concurrency: number;
}

async function measure(pattern: 'job-scheduler' | 'monitor-job', url: string, s: Settings) {
  const redis: Redis = new IORedis(url, { maxRetriesPerRequest: null });
  const prefix = 'qc';
  const scheduler = new MonitorScheduler(redis, prefix);
  const queue = new Queue(scheduler.queue.name, { connection: redis, prefix });
  for (let start = 1; start <= s.monitors; start += 500) {
    const ids = Array.from({ length: Math.min(500, s.monitors - start + 1) }, (_, k) => start + k);
    await Promise.all(
      ids.map((id) => {
        const monitor = aTypicalMonitor(id, s.intervalMs / 1000);
        if (pattern === 'monitor-job') return scheduler.schedule(monitor);
        const every = s.intervalMs;
        const offset = scheduleOffsetMs(id, every) || 1;
        return queue.upsertJobScheduler(
          `monitor-${id}`,
          { every, offset, startDate: firstSlotAfter(Date.now() + 1000, every, offset) },
          { name: JOBS.runCheck.name, data: { monitorId: id, configVersion: 1, check: compactCheck(checkConfigOf(monitor)) }, opts: jobOptionsOf(JOBS.runCheck) },
        );
      }),
    );
  }
  let processed = 0;
  const cycle = new MonitorJobCycle(redis, prefix, logger);
  const workerConnection = new IORedis(url, { maxRetriesPerRequest: null });
  const worker = new Worker(
    scheduler.queue.name,
    async (job: Job, token?: string) => {
      processed += 1;
      if (pattern === 'job-scheduler') return;
      return cycle.continue(job, token, { outcome: 'recorded' });
    },
    { connection: workerConnection, prefix, concurrency: s.concurrency },
  );
  // One interval to warm up, so every monitor is in its steady rhythm.
  await sleep(s.intervalMs + 2000);
  const before = { stats: await commandStats(redis), cpu: process.cpuUsage(), processed };
  await sleep(s.windowMs);
  const after = { stats: await commandStats(redis), cpu: process.cpuUsage(), processed };
  await worker.close();
  await workerConnection.quit();
  await queue.close();
  await scheduler.close();
  await redis.quit();
  const checks = after.processed - before.processed;
  const cpuMs = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
  return {
    checks,
    checksPerSecond: Math.round((checks / s.windowMs) * 1000 * 10) / 10,
    redisCallsPerCheck: round((after.stats.calls - before.stats.calls) / checks),
    redisCommandMsPerCheck: round((after.stats.usec - before.stats.usec) / 1000 / checks),
    redisCpuMsPerCheck: round((after.stats.cpuSeconds - before.stats.cpuSeconds) * 1000 / checks),
    workerCpuMsPerCheck: round(cpuMs / checks),
  };
}

/** Every command's calls and µs (INFO commandstats) and the server's CPU (INFO cpu). */
async function commandStats(redis: Redis): Promise<{ calls: number; usec: number; cpuSeconds: number }> {
  const stats = await redis.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const match of stats.matchAll(/calls=(\d+),usec=(\d+)/g)) {
    calls += Number(match[1]);
    usec += Number(match[2]);
  }
  const cpu = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  return { calls, usec, cpuSeconds: field('used_cpu_user') + field('used_cpu_sys') };
}

/** A monitor as a user creates it: an HTTPS URL of typical length and the API's defaults. */
function aTypicalMonitor(id: number, intervalSeconds: number): SchedulableMonitor {
  return { ...aCheckConfig(`https://status.example-company.com/health/${id}`, { timeout: 30 }), tcpSend: null, dnsRecordType: 'A', dnsResolver: null, dnsProtocol: 'udp', expectedDnsValues: [], pingCount: 3, id, configVersion: 1, checkInterval: intervalSeconds };
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
