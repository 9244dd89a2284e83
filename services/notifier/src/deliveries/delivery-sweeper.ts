import type { Logger } from '@uptime/logger';
import { startPeriodicPass } from '@uptime/observability';
import { loadAlert } from '../alert.repository';
import { attemptDelivery, type AttemptDeps } from './attempt-delivery';
import { listDueDeliveries } from './delivery.repository';

/** Often enough that a dead sender's lease is taken over well within 30 s of expiring. */
export const DEFAULT_SWEEP_INTERVAL_MS = 5_000;
const BATCH = 50;

export interface DeliverySweeper {
  /** One pass now, after the running one (tests, and the timer); resolves with how many deliveries it attempted. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs in every notifier: sends the deliveries that are due (a retry whose time came) or whose
 * lease expired (the sender died), whatever became of their job — a job that used up its
 * attempts, was removed, or died with its process. Claims are leases, so sweepers and jobs of
 * any number of notifiers never send one delivery at the same time.
 */
export function startDeliverySweeper(deps: AttemptDeps, options: { intervalMs?: number } = {}): DeliverySweeper {
  const log: Logger = deps.logger.child({ component: 'delivery-sweeper' });
  const pass = async (): Promise<number> => {
    const due = await listDueDeliveries(deps.dataSource, BATCH);
    let attempted = 0;
    for (const row of due) {
      const alert = await loadAlert(deps.dataSource.manager, row.alert);
      if (!alert) continue; // its monitor was deleted a moment ago: the cascade removes the delivery
      const outcome = await attemptDelivery(deps, row, alert, { onlyIfDue: true });
      if (outcome !== 'busy') attempted += 1;
    }
    if (attempted > 0) log.info({ attempted }, 'swept due deliveries');
    return attempted;
  };
  const periodic = startPeriodicPass(pass, options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, log, 'delivery sweep');
  return { sweep: () => periodic.run(), stop: () => periodic.stop() };
}
