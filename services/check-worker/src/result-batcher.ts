/**
 * Collects items and hands them to `flush` in batches (at most `maxBatch`, or whatever arrived
 * within `maxDelayMs`), one batch at a time. `add` resolves once its batch is written, so a job
 * completes only after its result is safe.
 */
export class ResultBatcher<T> {
  private pending: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly flush: (items: T[]) => Promise<void>,
    private readonly opts: { maxBatch: number; maxDelayMs: number } = { maxBatch: 250, maxDelayMs: 100 },
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.opts.maxBatch) this.schedule(0);
      else this.schedule(this.opts.maxDelayMs);
    });
  }

  private schedule(delayMs: number): void {
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flushing.then(() => this.flushNext(false));
    }, delayMs);
  }

  /**
   * Writes one batch, and more only while a full one is waiting (or, for drain, while anything
   * is). What arrived while a batch was being written waits for its own timer, set when its first
   * item came: writing it at once would send Postgres a stream of small transactions whenever
   * writes are slow, each paying a transaction's fixed cost (the capacity runs of 2026-11-28
   * measured 22 results a batch that way instead of 50, and Postgres busier by half).
   */
  private async flushNext(all: boolean): Promise<void> {
    do {
      const batch = this.pending.splice(0, this.opts.maxBatch);
      if (batch.length === 0) return;
      try {
        await this.flush(batch.map((b) => b.item));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    } while (this.pending.length >= (all ? 1 : this.opts.maxBatch));
  }

  /** Writes everything still pending. */
  async drain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.flushNext(true));
    await this.flushing;
  }
}
