/**
 * The last minute of check lags, in per-second slots of logarithmic histograms: recording is O(1)
 * at any rate, memory is fixed, and a quantile is read to within one bucket (10 %). Two
 * histograms: the lag in seconds (what an operator reads) and the lag as a fraction of the
 * check's interval (what "late" means, since a 3 s lag is nothing at 1 h and a lot at 10 s).
 */
const GROWTH = 1.1;
const LOG_GROWTH = Math.log(GROWTH);
const WINDOW_SECONDS = 60;

class LogHistogram {
  readonly counts: Uint32Array;

  constructor(
    private readonly min: number,
    max: number,
  ) {
    this.counts = new Uint32Array(Math.ceil(Math.log(max / min) / LOG_GROWTH) + 1);
  }

  bucketOf(value: number): number {
    if (!(value > this.min)) return 0;
    return Math.min(this.counts.length - 1, Math.ceil(Math.log(value / this.min) / LOG_GROWTH));
  }

  /** The upper bound of bucket `i`: a quantile is never under-reported. */
  upperBound(i: number): number {
    return this.min * GROWTH ** i;
  }
}

interface Slot {
  second: number;
  checks: number;
  lag: LogHistogram;
  ratio: LogHistogram;
}

export interface LagSnapshot {
  perSecond: number;
  lagP99Seconds: number | null;
  /** p99 of lag / interval over the checks that have an interval (scheduled ones). */
  intervalFractionP99: number | null;
}

const newSlot = (second: number): Slot => ({
  second,
  checks: 0,
  // 1 ms to a day of lag; a millionth to 10,000 intervals.
  lag: new LogHistogram(0.001, 86_400),
  ratio: new LogHistogram(0.000_001, 10_000),
});

function quantile(histograms: LogHistogram[], q: number): number | null {
  const first = histograms[0];
  if (!first) return null;
  const merged = new Float64Array(first.counts.length);
  for (const h of histograms) for (let i = 0; i < merged.length; i++) merged[i] += h.counts[i];
  const total = merged.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < merged.length; i++) {
    seen += merged[i];
    if (seen >= rank) return first.upperBound(i);
  }
  return first.upperBound(merged.length - 1);
}

export class CheckLagWindow {
  private readonly slots: Slot[] = [];
  private readonly startedSecond: number;

  constructor(now = Date.now()) {
    this.startedSecond = Math.floor(now / 1000);
    for (let i = 0; i < WINDOW_SECONDS; i++) this.slots.push(newSlot(-1));
  }

  /** A check started `lagSeconds` after its planned time; `intervalSeconds` when it is scheduled. */
  record(lagSeconds: number, intervalSeconds: number | null, now = Date.now()): void {
    const second = Math.floor(now / 1000);
    let slot = this.slots[second % WINDOW_SECONDS];
    if (slot.second !== second) {
      slot = newSlot(second);
      this.slots[second % WINDOW_SECONDS] = slot;
    }
    slot.checks += 1;
    slot.lag.counts[slot.lag.bucketOf(lagSeconds)] += 1;
    if (intervalSeconds !== null && intervalSeconds > 0) slot.ratio.counts[slot.ratio.bucketOf(lagSeconds / intervalSeconds)] += 1;
  }

  /** The figures of the last minute (of less, just after start, so the rate is not understated). */
  snapshot(now = Date.now()): LagSnapshot {
    const second = Math.floor(now / 1000);
    const live = this.slots.filter((s) => s.second > second - WINDOW_SECONDS && s.second <= second);
    const seconds = Math.max(1, Math.min(WINDOW_SECONDS, second - this.startedSecond + 1));
    const checks = live.reduce((n, s) => n + s.checks, 0);
    const lag = quantile(live.map((s) => s.lag), 0.99);
    const fraction = quantile(live.map((s) => s.ratio), 0.99);
    return {
      perSecond: Math.round((checks / seconds) * 10) / 10,
      lagP99Seconds: lag === null ? null : Math.round(lag * 1000) / 1000,
      intervalFractionP99: fraction,
    };
  }
}
