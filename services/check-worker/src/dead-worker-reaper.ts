import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';
import type { CheckLock } from './check-lock';
import { countAsStall } from './job-stalls';

// The active jobs whose BullMQ lock a given process holds (KEYS[1] the active list; ARGV[1] the
// queue's key prefix, ARGV[2] the process's worker id): id, lock token and data of each, in
// triples. A BullMQ token is `{worker id}:{n}` (Worker.processJob), so no per-job registry is
// needed. It reads every active job's lock, but only when a process died.
const JOBS_OF_OWNER = `local owner = ARGV[2] .. ':'
local found = {}
for _, id in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do
  local token = redis.call('get', ARGV[1] .. id .. ':lock')
  if token and string.sub(token, 1, #owner) == owner then
    table.insert(found, id)
    table.insert(found, token)
    table.insert(found, redis.call('hget', ARGV[1] .. id, 'data') or '')
  end
end
return found`;

interface OwnedJob {
  id: string;
  token: string;
  monitorId: number | undefined;
}

function monitorIdIn(data: string): number | undefined {
  try {
    const id = (JSON.parse(data) as { monitorId?: unknown }).monitorId;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes back the checks of a check-worker process its peers declared dead (worker-liveness.ts):
 * first the per-monitor check locks it held (only those still naming it), then each of its
 * active jobs goes back to the waiting list with BullMQ's own script for that
 * (moveJobFromActiveToWait, called with the dead process's token: it removes the job lock only
 * while it still holds that token, and the stalled set's entry with it). The locks go first, so
 * the worker that takes the job finds its monitor free and re-runs the check for its planned
 * time rather than skipping it. A result the dead process wrote already makes the re-run's
 * insert a no-op (results are keyed by monitor and planned time).
 */
export async function reapDeadWorker(
  { queue, redis, lock }: { queue: Queue; redis: Redis; lock: CheckLock },
  deadId: string,
  logger: Logger,
): Promise<number> {
  const flat = (await redis.eval(JOBS_OF_OWNER, 1, queue.toKey('active'), queue.toKey(''), deadId)) as string[];
  const jobs: OwnedJob[] = [];
  for (let i = 0; i < flat.length; i += 3) jobs.push({ id: flat[i]!, token: flat[i + 1]!, monitorId: monitorIdIn(flat[i + 2]!) });
  if (jobs.length === 0) return 0;
  const monitorIds = jobs.flatMap((j) => (j.monitorId === undefined ? [] : [j.monitorId]));
  await lock.releaseOf(deadId, monitorIds);
  const moved = await Promise.all(
    jobs.map(async ({ id, token }) => {
      const job = await Job.fromId(queue, id);
      // Gone or moved on meanwhile (finished by a process that was only slow): nothing to take back.
      if (!job) return false;
      if (!(await countAsStall(redis, queue.toKey(id), token))) return false;
      return job.moveToWait(token).then(
        () => true,
        () => false,
      );
    }),
  );
  const requeued = moved.filter(Boolean).length;
  logger.warn(
    { dead_worker_id: deadId, requeued, jobs: jobs.map((j) => ({ job_id: j.id, monitor_id: j.monitorId })) },
    'checks of a dead check-worker put back in the queue',
  );
  return requeued;
}
