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
}

/** Batches written at once: more waiting pings join the next batch instead of taking a connection each. */
const MAX_BATCHES_IN_FLIGHT = 2;
/** Pings in one statement at most. */
const MAX_BATCH = 1000;

/**
 * Group commit of pings (docs/heartbeats.md, "How it is built"): the pings that arrive within one
 * turn of the event loop, or while the batches before them are being written, are counted in one
 * Redis script and written in one statement, and each is answered after that statement
 * committed, so a ping is still durable before its 200. A batch does once what was done per
 * ping: a Redis round trip, a Postgres round trip and its commit's WAL flush, which was where a
 * ping's time went on a busy disk (docs/capacity.md, "Heartbeats"). At most
 * MAX_BATCHES_IN_FLIGHT are written at once, so under load the batches grow rather than queue
 * for the pool's connections.
 */
export class PingBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(private readonly deps: { ds: DataSource; redis: Redis; prefix: string; ipLimit?: PingIpLimit }) {}

  /** Counts and records a ping with the others of its batch. */
  submit(ping: PingRequest): Promise<PingOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ping, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_BATCHES_IN_FLIGHT || this.waiting.length === 0) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request parsed in this turn is in.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.waiting.splice(0, MAX_BATCH);
    this.inFlight += 1;
    this.record(batch)
      .catch((err: unknown) => {
        for (const w of batch) w.reject(err);
      })
      .finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    this.schedule();
  }

  private async record(batch: Waiting[]): Promise<void> {
    const { ds, redis, prefix, ipLimit } = this.deps;
    const verdicts = await countPings(
      redis,
      prefix,
      batch.map((w) => w.ping),
      ipLimit,
    );
    // Only a ping within its limits is looked up; an unknown token within them costs the same
    // statement as a known one (it writes nothing).
    const within = batch.flatMap((w, i) => (verdicts[i]!.outcome === 'within' && w.ping.input !== null ? [i] : []));
    const written = within.length === 0 ? [] : await insertPings(ds, within.map((i) => batch[i]!.ping.input!));
    const recorded = new Set(within.filter((_, k) => written[k]));
    batch.forEach((w, i) => w.resolve({ recorded: recorded.has(i), rate: verdicts[i]! }));
  }
}
