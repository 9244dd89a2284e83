/**
 * Gathers the calls made within one turn of the event loop and runs them together: `run` gets
 * them all (at most `maxItems` at a time) once the turn's microtasks are done (setImmediate).
 * Each call's promise settles with its group's run: resolves with its own item's answer (the
 * answers `run` returns, in the items' order, when it returns any) when it succeeded, rejects
 * with its error otherwise.
 *
 * The results of a batch are written in one transaction (result-batcher.ts), so every job of the
 * batch finishes in the continuations of that commit: one turn. Their lock releases, gathered
 * here, cost one Redis command instead of one each (check-lock.ts).
 */
export class SameTickBatch<T, R = void> {
  private pending: { item: T; resolve: (answer: R) => void; reject: (err: unknown) => void }[] = [];

  constructor(
    private readonly run: (items: T[]) => Promise<R[] | void>,
    private readonly maxItems = 1000,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const all = this.pending;
    this.pending = [];
    for (let start = 0; start < all.length; start += this.maxItems) {
      const group = all.slice(start, start + this.maxItems);
      // run() is called synchronously here, so the groups' commands are sent in order.
      let ran: Promise<R[] | void>;
      try {
        ran = this.run(group.map((g) => g.item));
      } catch (err) {
        ran = Promise.reject(err);
      }
      ran.then(
        (answers) => group.forEach((g, i) => g.resolve((answers ? answers[i] : undefined) as R)),
        (err: unknown) => group.forEach((g) => g.reject(err)),
      );
    }
  }
}
