import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { insertPings, type PingInput } from './heartbeat-pings.repository';
import { countPings, type PingIpLimit, type PingRateVerdict } from './ping-rate';

/**
 * A ping to count: its token and the address it came from (for the per-IP count); and what to
 * record when within its limits, or null when its route names no signal (counted, not recorded).
 */
export interface PingRequest {
  token: string;
  ip: string | undefined;
  input: PingInput | null;
}

/** What became of a ping: recorded (its token named a monitor), unknown token, or limited. */
export type PingOutcome = { recorded: boolean; rate: PingRateVerdict };

interface Waiting {
  ping: PingRequest;
  resolve: (outcome: PingOutcome) => void;
  reject: (err: unknown) => void;
  /** performance.now() at submit. */
  submittedAt: number;
}

/**
 * Batches written at once. A ping that arrives while this many are in flight waits for the first
 * of them to finish; below it, the pings of each event-loop turn start their batch at once
 * (pipelined: one batch's Redis script beside another's commit). Tuned with
 * `pnpm bench:ping-batcher` (docs/capacity.md, "Pipelined ping batches"): 2 made a ping wait for
 * the batch before it as soon as a commit took longer than a turn; more than 4 gave no lower p99
 * and took more of the API's 10 pooled connections from its other routes.
 */
export const MAX_BATCHES_IN_FLIGHT = 4;
/**
 * Pings in one batch at most: under a backlog the waiting pings are split into batches of this
 * size, so one slow commit holds at most this many answers, and the next batches start beside it.
 */
export const MAX_BATCH = 250;

/** Where one batch's time went, for `observe` (`pnpm bench:ping-batcher`, bench/ping-batcher.ts). */
export interface PingBatchTiming {
  pings: number;
  /** From the batch's first ping's submit to the batch's start: the wait for a turn, or for a batch in flight. */
  queuedMs: number;
  /** The Redis script's round trip. */
  countMs: number;
  /** The INSERT's round trip, its commit included (0 when nothing was within its limits). */
  insertMs: number;
  /** Batches in flight when it started, itself included. */
  inFlight: number;
}

/**
 * Group commit of pings (docs/heartbeats.md, "How it is built"): the pings that arrive within one
 * turn of the event loop, or while MAX_BATCHES_IN_FLIGHT batches are being written, are counted
 * in one Redis script and written in one statement, and each is answered after that statement
 * committed, so a ping is still durable before its 200. A batch does once what was done per
 * ping: a Redis round trip, a Postgres round trip and its commit's WAL flush, which was where a
 * ping's time went on a busy disk (docs/capacity.md, "Heartbeats"). Batches are pipelined up to
 * MAX_BATCHES_IN_FLIGHT, each answering its own pings when it commits, whatever the others do;
 * past that, waiting pings join the next batches (at most MAX_BATCH each), so under load the
 * batches grow rather than queue for the pool's connections.
 */
export class PingBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly deps: {
      ds: DataSource;
      redis: Redis;
      prefix: string;
      ipLimit?: PingIpLimit;
      /** Told each batch's timing after it is answered (the bench's breakdown of a ping's wait). */
      observe?: (timing: PingBatchTiming) => void;
      /** MAX_BATCHES_IN_FLIGHT unless given (the bench compares caps; a test holds a batch with 1). */
      maxInFlight?: number;
      /** MAX_BATCH unless given. */
      maxBatch?: number;
    },
  ) {}

  /** Counts and records a ping with the others of its batch. */
  submit(ping: PingRequest): Promise<PingOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ping, resolve, reject, submittedAt: performance.now() });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= (this.deps.maxInFlight ?? MAX_BATCHES_IN_FLIGHT) || this.waiting.length === 0) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request parsed in this turn is in.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting.splice(0, this.deps.maxBatch ?? MAX_BATCH);
    if (batch.length === 0) return;
    this.inFlight += 1;
    const inFlight = this.inFlight;
    this.record(batch, inFlight)
      .catch((err: unknown) => {
        for (const w of batch) w.reject(err);
      })
      .finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    // A backlog past MAX_BATCH starts its next batch in the next turn, beside this one.
    this.schedule();
  }

  private async record(batch: Waiting[], inFlight: number): Promise<void> {
    const { ds, redis, prefix, ipLimit, observe } = this.deps;
    const started = performance.now();
    const verdicts = await countPings(
      redis,
      prefix,
      batch.map((w) => w.ping),
      ipLimit,
    );
    const counted = performance.now();
    // Only a ping within its limits is looked up; an unknown token within them costs the same
    // statement as a known one (it writes nothing).
    const within = batch.flatMap((w, i) => (verdicts[i]!.outcome === 'within' && w.ping.input !== null ? [i] : []));
    const written =
      within.length === 0
        ? []
        : await insertPings(
            ds,
            within.map((i) => batch[i]!.ping.input!),
          );
    const recorded = new Set(within.filter((_, k) => written[k]));
    batch.forEach((w, i) => w.resolve({ recorded: recorded.has(i), rate: verdicts[i]! }));
    observe?.({
      pings: batch.length,
      queuedMs: started - batch[0]!.submittedAt,
      countMs: counted - started,
      insertMs: within.length === 0 ? 0 : performance.now() - counted,
      inFlight,
    });
  }
}
