import type { Job } from 'bullmq';
import type { Monitor } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { runProbe, type ProbeOptions } from '@uptime/probe';
import type { RunCheckJob } from '@uptime/queues';
import type { CheckOutcome } from '../../src/check-outcome';
import { CheckLock } from '../../src/check-lock';
import { recordCheckBatch } from '../../src/record-check-batch';
import { createRunCheckProcessor } from '../../src/run-check.processor';
import type { SchedulerBed } from './scheduler-bed';

const logger = createLogger({ level: 'silent', service: 'check-and-record' });

/**
 * A monitor's check from its schedule to its recorded state: the job the scheduler made for it,
 * planned for `plannedAt`, run by the worker's processor with `probeOptions`, and its outcome
 * recorded as the batcher would. `lockName` keeps each test file's check locks apart.
 */
export function checkAndRecordOn(bed: SchedulerBed, lockName: string) {
  return async (monitor: Monitor, plannedAt: number, probeOptions: ProbeOptions = { allowPrivateTargets: true }): Promise<CheckOutcome> => {
    await bed.scheduler.schedule(monitor);
    const [job] = (await bed.scheduler.queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter((j) => j.data.monitorId === monitor.id);
    const data: RunCheckJob = { ...job!.data, plannedAt };
    const recorded: CheckOutcome[] = [];
    const run = createRunCheckProcessor({
      probe: runProbe,
      probeOptions,
      lock: new CheckLock(bed.redis, `${process.env.QUEUE_PREFIX}:${lockName}`),
      record: async (outcome) => {
        recorded.push(outcome);
      },
      logger,
    });
    expect(await run({ id: `now-${monitor.id}-${plannedAt}`, data, timestamp: Date.now(), opts: {} } as unknown as Job)).toBe('recorded');
    await recordCheckBatch(bed.ds, recorded);
    return recorded[0]!;
  };
}
