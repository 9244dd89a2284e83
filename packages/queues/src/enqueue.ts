import { Queue, type Job, type JobsOptions, type QueueOptions } from 'bullmq';
import { jobOptionsOf, type JobDefinition } from './job-catalog';
import type { QueueName } from './queue-names';

/** A BullMQ queue of the catalog: `enqueue()` only accepts the jobs declared on it. */
export type CatalogQueue<Q extends QueueName> = Queue & { readonly name: Q };

/** Opens one of the catalog's queues for producing (or counting) jobs. */
export function openQueue<Q extends QueueName>(name: Q, options: QueueOptions): CatalogQueue<Q> {
  return new Queue(name, options) as CatalogQueue<Q>;
}

function optionsFor<P extends object>(queue: Queue, job: JobDefinition<QueueName, string, P>, data: P): JobsOptions {
  // The types rule this out; a queue opened some other way still cannot get a foreign job.
  if (queue.name !== job.queue) throw new Error(`job "${job.name}" belongs to queue ${job.queue}, not ${queue.name}`);
  const options = jobOptionsOf(job);
  if (job.jobId) options.jobId = job.jobId(data);
  return options;
}

/** Queues one job with the catalog's name, id, retries and retention. */
export function enqueue<Q extends QueueName, N extends string, P extends object>(
  queue: CatalogQueue<Q>,
  job: JobDefinition<Q, N, P>,
  data: P,
): Promise<Job<P>> {
  return queue.add(job.name, data, optionsFor(queue, job, data));
}

/** Queues several jobs of one kind in one round trip. */
export function enqueueBulk<Q extends QueueName, N extends string, P extends object>(
  queue: CatalogQueue<Q>,
  job: JobDefinition<Q, N, P>,
  items: readonly P[],
): Promise<Job<P>[]> {
  return queue.addBulk(items.map((data) => ({ name: job.name, data, opts: optionsFor(queue, job, data) })));
}
