import type { Redis } from 'ioredis';
import type { WriteWatch } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { isDatabaseUnavailable, WriteDeadlineError } from './database-unavailable';
import { decodeOutcome, encodeOutcome } from './outcome-codec';
import type { CheckOutcome } from './check-outcome';

/**
 * A write of results that has made no progress for this long (no statement finished) is taken as
 * Postgres hanging. Progress, not the whole write: a worker whose CPU is saturated runs a batch's
 * statements slowly, one after another, and a deadline on the whole batch gave up on every try of
 * a heavy batch, so nothing more was written (docs/reliability.md).
 */
export const RESULT_WRITE_DEADLINE_MS = 5_000;

/** What a write gets from the backlog: the signal aborted at the deadline, and how to push it back. */
export type { WriteWatch };

/** How often a backlog tries Postgres again, and looks for results other workers left in Redis. */
export const BACKLOG_RETRY_MS = 1_000;
const DRAIN_BATCH = 250;

export interface ResultBacklogOptions {
  /**
   * Writes a batch of results in one transaction (recordCheckBatch and publishing its events),
   * calling `watch.progress()` as its statements finish. `watch.signal` is aborted when the write
   * passes its deadline: the write then stops and rolls back, so that the retry does not wait for
   * its locks.
   */
  write: (outcomes: CheckOutcome[], watch: WriteWatch) => Promise<void>;
  redis: Redis;
  /** The Redis list shared by every worker of this install. */
  key: string;
  bounds: { memoryMax: number; redisMax: number };
  logger: Logger;
  writeDeadlineMs?: number;
  retryMs?: number;
}

/** Both bounds are reached: the check fails on our side and its job is retried by BullMQ. */
export class ResultBacklogFullError extends Error {
  constructor() {
    super('Postgres is unreachable and the result backlog is full (RESULT_BUFFER_MEMORY_MAX, RESULT_BUFFER_REDIS_MAX)');
    this.name = 'ResultBacklogFullError';
  }
}

/**
 * Writes results, and keeps those it cannot write while Postgres is unreachable (refused,
 * reset, or a write hung past its deadline): in this process's memory up to a bound, then in a
 * Redis list shared by all workers up to another. It writes them back oldest first, in batches,
 * as soon as Postgres answers, with their real check times; the state machine then steps through
 * them (incidents start at the real time of the first failure) and status events follow.
 *
 * While this worker holds a backlog, new results queue behind it, so its own results reach
 * Postgres in the order they were checked. Results from different workers may arrive out of
 * order; recordCheckBatch lets only a monitor's newest check move its state.
 */
export class ResultBacklog {
  private readonly memory: CheckOutcome[] = [];
  /** This worker pushed to Redis since its backlog was last empty. */
  private spilled = false;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> = Promise.resolve();
  private stopped = false;
  private failedTries = 0;
  private readonly deadlineMs: number;
  private readonly retryMs: number;

  constructor(private readonly options: ResultBacklogOptions) {
    this.deadlineMs = options.writeDeadlineMs ?? RESULT_WRITE_DEADLINE_MS;
    this.retryMs = options.retryMs ?? BACKLOG_RETRY_MS;
  }

  /** Results held by this worker's memory (for tests and logs). */
  get inMemory(): number {
    return this.memory.length;
  }

  /** Starts looking for results to write back, every `retryMs`. */
  start(): void {
    this.schedule();
  }

  /**
   * Records a batch: written now when nothing is waiting and Postgres answers; otherwise kept.
   * Rejects when the batch could not be written and could not be kept either.
   */
  async record(outcomes: CheckOutcome[]): Promise<void> {
    if (this.memory.length === 0 && !this.spilled) {
      try {
        await this.writeWithinDeadline(outcomes);
        return;
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        this.options.logger.warn({ err, results: outcomes.length }, 'Postgres unreachable: keeping results to write when it returns');
      }
    }
    await this.keep(outcomes);
  }

  /** Stops retrying; what is still in memory goes to Redis so another worker writes it. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.draining;
    if (this.memory.length === 0) return;
    const held = this.memory.splice(0);
    try {
      await this.options.redis.rpush(this.options.key, ...held.map(encodeOutcome));
      this.options.logger.warn({ results: held.length }, 'stopping with unwritten results: left in Redis for another worker');
    } catch (err) {
      this.options.logger.error({ err, results: held.length }, 'stopping with unwritten results that Redis would not take: lost');
    }
  }

  private async keep(outcomes: CheckOutcome[]): Promise<void> {
    // Once this worker has spilled to Redis, memory takes nothing more until the backlog is
    // empty: memory is written back first, so anything newer than Redis's results must not be there.
    const room = this.spilled ? 0 : Math.max(0, this.options.bounds.memoryMax - this.memory.length);
    this.memory.push(...outcomes.slice(0, room));
    const overflow = outcomes.slice(room);
    if (overflow.length === 0) return;
    const { redis, key, bounds } = this.options;
    if ((await redis.llen(key)) + overflow.length > bounds.redisMax) throw new ResultBacklogFullError();
    await redis.rpush(key, ...overflow.map(encodeOutcome));
    this.spilled = true;
  }

  private writeWithinDeadline(outcomes: CheckOutcome[]): Promise<void> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let giveUp: (late: WriteDeadlineError) => void = () => undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      giveUp = (late) => {
        abort.abort(late);
        reject(late);
      };
    });
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => giveUp(new WriteDeadlineError(this.deadlineMs)), this.deadlineMs);
    };
    arm();
    const write = this.options.write(outcomes, { signal: abort.signal, progress: () => abort.signal.aborted || arm() });
    // A hung write may still commit once the connection flows again; writing the same results
    // again is then a no-op (results are keyed by monitor and planned time).
    write.catch(() => undefined);
    return Promise.race([write, deadline]).finally(() => clearTimeout(timer));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.draining = this.drain()
        .then(() => {
          this.failedTries = 0;
        })
        .catch((err: unknown) => {
          // Once at warn per outage (the first failed try), then at debug every retry.
          this.failedTries += 1;
          const level = this.failedTries === 1 ? 'warn' : 'debug';
          this.options.logger[level]({ err, tries: this.failedTries }, 'result backlog: Postgres or Redis still unreachable');
        })
        .finally(() => this.schedule());
    }, this.retryMs);
    this.timer.unref();
  }

  /** Writes back what it can, oldest first: this worker's memory, then the shared Redis list. */
  private async drain(): Promise<void> {
    let written = 0;
    while (!this.stopped) {
      if (this.memory.length > 0) {
        const batch = this.memory.slice(0, DRAIN_BATCH);
        await this.writeBack(batch);
        this.memory.splice(0, batch.length);
        written += batch.length;
        continue;
      }
      const { redis, key } = this.options;
      const popped = ((await redis.lpop(key, DRAIN_BATCH)) as string[] | null) ?? [];
      if (popped.length === 0) {
        this.spilled = false;
        break;
      }
      try {
        await this.writeBack(popped.map(decodeOutcome));
      } catch (err) {
        // Back at the head, in order, for the next try (by this worker or another).
        await redis.lpush(key, ...[...popped].reverse());
        throw err;
      }
      written += popped.length;
    }
    if (written > 0) this.options.logger.info({ results: written }, 'result backlog written to Postgres');
  }

  /** A batch Postgres refuses for another reason would block every later one: it is logged and dropped. */
  private async writeBack(batch: CheckOutcome[]): Promise<void> {
    try {
      await this.writeWithinDeadline(batch);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      this.options.logger.error({ err, results: batch.length }, 'result backlog: Postgres refused a batch; dropped');
    }
  }
}
