import type { Logger } from '@uptime/logger';

/** A pass that runs on a timer and on demand, never twice at once in one process. */
export interface PeriodicPass<T, Arg = undefined> {
  /** One pass now: after the running one, if any, so it starts after this call. */
  run(arg?: Arg): Promise<T>;
  /** Stops the timer, then waits for the running pass (its failure is the timer's to log). */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` on a timer that keeps no process alive. A tick while a pass runs
 * is skipped (the next one will do); a failed pass is logged as "`what` failed" and the next tick
 * tries again. The sweeps that repair what a crash left behind use it (the notifier's deliveries
 * and follow-ups, the check-worker's status events): each must be safe to repeat, and is.
 */
export function startPeriodicPass<T, Arg = undefined>(
  pass: (arg?: Arg) => Promise<T>,
  intervalMs: number,
  log: Pick<Logger, 'warn'>,
  what: string,
): PeriodicPass<T, Arg> {
  let running: Promise<T> | null = null;
  const run = async (arg?: Arg): Promise<T> => {
    while (running) await running.catch(() => undefined);
    const current = pass(arg).finally(() => {
      running = null;
    });
    running = current;
    return current;
  };
  const timer = setInterval(() => {
    if (running) return;
    run().catch((err: unknown) => log.warn({ err }, `${what} failed; next pass will retry`));
  }, intervalMs);
  timer.unref();
  return {
    run,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
