import { UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import { jobsOf, type JobNameOf } from './job-catalog';
import type { QueueName } from './queue-names';

/** Handles one job; the return value becomes the job's result. */
export type JobHandler = (job: Job, token?: string) => Promise<unknown>;

/** One handler per job of the queue, no more, no fewer. */
export type JobHandlers<Q extends QueueName> = { readonly [N in JobNameOf<Q>]: JobHandler };

/** Worker options; retention is not among them: it travels with each job (job-catalog.ts). */
export type QueueWorkerOptions = Omit<WorkerOptions, 'removeOnComplete' | 'removeOnFail'>;

/**
 * A BullMQ worker of one of the catalog's queues. It refuses to start when a job of the queue has
 * no handler, or a handler names no job of the queue, so a deployed worker never meets a job it
 * was not built for; a job with an unknown name (a newer producer, a hand-made job) fails at once,
 * without retries, since no retry of this worker can ever handle it.
 */
export function createQueueWorker<Q extends QueueName>(queue: Q, handlers: JobHandlers<Q>, options: QueueWorkerOptions): Worker {
  const table = new Map<string, JobHandler>(Object.entries(handlers as Record<string, JobHandler>));
  const expected = jobsOf(queue).map((job) => job.name as string);
  const missing = expected.filter((name) => typeof table.get(name) !== 'function');
  if (missing.length > 0) throw new Error(`worker of queue ${queue} has no handler for job ${missing.map((n) => `"${n}"`).join(', ')}`);
  const foreign = [...table.keys()].filter((name) => !expected.includes(name));
  if (foreign.length > 0) throw new Error(`worker of queue ${queue} has handlers for jobs not on it: ${foreign.join(', ')}`);
  return new Worker(
    queue,
    async (job: Job, token?: string) => {
      const handle = table.get(job.name);
      if (!handle) throw new UnrecoverableError(`no handler for job "${job.name}" on queue ${queue}`);
      return handle(job, token);
    },
    options,
  );
}
