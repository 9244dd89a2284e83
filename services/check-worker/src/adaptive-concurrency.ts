import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How many checks a worker process keeps in flight, sized from what it measures rather than
 * configured. By Little's law the checks in flight on average (L) are the rate they start at (λ)
 * times how long each holds its slot (W: the probe, then the wait for its batch to commit). A
 * process that keeps `HEADROOM` × L slots open never makes a due check wait for a slot, whether
 * its targets answer in 1 ms or in 5 s. `CHECK_CONCURRENCY` bounds it (memory: docs/capacity.md).
 *
 * Except when the process is short of CPU. Then W grows because every callback waits for the
 * event loop, not because targets are slow, and more slots only make it worse: TLS handshakes
 * time out and healthy targets are recorded down. So while the event loop lags (`LOOP_LAG_LIMIT_MS`)
 * the limit shrinks and never grows. Due checks then wait in the queue, where the lag metric and
 * its warning say so (docs/capacity.md, "Adaptive concurrency").
 */

/** What a worker measured over one control period. */
export interface ConcurrencySample {
  periodMs: number;
  /** ∑ over the period of (checks in flight × time), in ms: heldMs / periodMs is L = λ × W. */
  heldMs: number;
  /** The p99 of the event loop's delay over the period, in ms (0 when not measured). */
  loopLagP99Ms?: number;
}

export interface ConcurrencyBounds {
  min: number;
  max: number;
}

/** Slots kept open per check in flight on average: room for bursts, and for W to double unseen. */
export const HEADROOM = 2;
/** Mean occupancy (of the current limit) at which every slot is taken: demand is then unknown, so grow. */
export const SATURATED = 0.9;
/** Growth per period while saturated: a 5-s target's backlog is reached in a few seconds. */
export const GROWTH = 2;
/** Shrinking per period once demand drops: slow, so a burst after a lull finds its slots. */
export const DECAY = 0.9;
/** Where a process starts before it has measured anything. */
export const INITIAL_CONCURRENCY = 50;
/** The least a process keeps open when idle. */
export const MIN_CONCURRENCY = 10;
/**
 * Event-loop delay (p99 over a period, as perf_hooks measures it: its 10 ms sampling interval
 * included) from which the process counts as short of CPU. An idle worker reads 10 ms, a busy
 * but healthy one tens while a result batch is handled; a check's timings are off by as much.
 */
export const LOOP_LAG_LIMIT_MS = 100;

export function boundsFor(max: number): ConcurrencyBounds {
  return { min: Math.min(MIN_CONCURRENCY, max), max };
}

/**
 * The next limit from the current one and a period's measurement (a pure function, the whole
 * policy). A saturated process cannot see its demand (a check that did not find a slot is not
 * measured), so it grows geometrically until it is no longer saturated; otherwise it sizes to
 * `HEADROOM` × L, shrinking by at most `DECAY` a period.
 */
export function nextConcurrency(current: number, sample: ConcurrencySample, bounds: ConcurrencyBounds): number {
  const clamp = (n: number): number => Math.min(bounds.max, Math.max(bounds.min, n));
  if (sample.periodMs <= 0) return clamp(current);
  if ((sample.loopLagP99Ms ?? 0) >= LOOP_LAG_LIMIT_MS) return clamp(Math.floor(current * DECAY));
  const meanInFlight = sample.heldMs / sample.periodMs;
  const wanted = Math.ceil(meanInFlight * HEADROOM);
  if (meanInFlight >= SATURATED * current) return clamp(Math.max(wanted, Math.ceil(current * GROWTH)));
  if (wanted >= current) return clamp(wanted);
  return clamp(Math.max(wanted, Math.floor(current * DECAY)));
}

/**
 * Measures the checks a process holds (`hold` wraps each one) and, every `periodMs`, applies
 * `nextConcurrency` through `apply` (a BullMQ Worker's `concurrency` can change while it runs).
 */
export class AdaptiveConcurrency {
  private inFlight = 0;
  private heldMs = 0;
  private lastChange: number;
  private periodStart: number;
  private limit: number;
  private timer?: NodeJS.Timeout;
  private stopLoop: () => void = () => undefined;
  readonly bounds: ConcurrencyBounds;

  constructor(
    max: number,
    private readonly now: () => number = Date.now,
    /** The event loop's p99 delay in ms since the last call; start() measures it with perf_hooks. */
    private loopLag: () => number = () => 0,
  ) {
    this.bounds = boundsFor(max);
    this.limit = Math.min(INITIAL_CONCURRENCY, max);
    this.lastChange = this.periodStart = now();
  }

  get current(): number {
    return this.limit;
  }

  private account(): void {
    const t = this.now();
    this.heldMs += this.inFlight * (t - this.lastChange);
    this.lastChange = t;
  }

  async hold<T>(run: () => Promise<T>): Promise<T> {
    this.account();
    this.inFlight += 1;
    try {
      return await run();
    } finally {
      this.account();
      this.inFlight -= 1;
    }
  }

  /** Closes the period: the new limit, from what was held since the last call. */
  adjust(): number {
    this.account();
    const t = this.now();
    this.limit = nextConcurrency(this.limit, { periodMs: t - this.periodStart, heldMs: this.heldMs, loopLagP99Ms: this.loopLag() }, this.bounds);
    this.heldMs = 0;
    this.periodStart = t;
    return this.limit;
  }

  start(periodMs: number, apply: (limit: number) => void): void {
    this.stop();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    this.stopLoop = () => delay.disable();
    this.loopLag = () => {
      const p99Ms = delay.count > 0 ? delay.percentile(99) / 1e6 : 0;
      delay.reset();
      return p99Ms;
    };
    this.timer = setInterval(() => {
      const before = this.limit;
      const after = this.adjust();
      if (after !== before) apply(after);
    }, periodMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopLoop();
    this.stopLoop = () => undefined;
  }
}
