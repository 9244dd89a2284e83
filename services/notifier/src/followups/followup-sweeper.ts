import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { startPeriodicPass } from '@uptime/observability';
import { alertRef } from '../alert';
import { loadAlert } from '../alert.repository';
import { attemptDelivery, type AttemptDeps } from '../deliveries/attempt-delivery';
import { queueChannelDeliveries } from '../channel-deliveries';
import { queueDeliveries, type OpenDeliveryRow } from '../deliveries/delivery.repository';
import { uniqueAddresses } from '../recipients';
import { dueFollowups } from './followup-schedule';
import { listFollowupCandidates, lockFollowupState, recordFollowup, supersedeEarlierReminders } from './followup.repository';

/** Reminders are set in minutes: a few seconds late is on time. */
export const DEFAULT_FOLLOWUP_SWEEP_INTERVAL_MS = 5_000;
const BATCH = 100;

export interface FollowupSweeperOptions {
  intervalMs?: number;
  /** The time follow-ups fall due against; tests drive it instead of waiting minutes. */
  clock?: () => Date;
}

export interface FollowupSweeper {
  /** One pass at `now` (by default the clock's time); resolves with how many follow-ups it recorded. */
  sweep(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Records the follow-ups that fell due and queues their emails, in one transaction per downtime,
 * with the notification row locked: the follow-up's row (notification, kind, round) is created
 * once, by whichever sweep of whichever notifier gets there first, and its deliveries with it, so
 * a crash leaves either both or neither.
 */
export async function recordDueFollowups(db: DataSource, notificationId: number, now: Date): Promise<OpenDeliveryRow[]> {
  return db.transaction(async (tx) => {
    const state = await lockFollowupState(tx, notificationId);
    if (!state) return [];
    const queued: OpenDeliveryRow[] = [];
    for (const followup of dueFollowups(state, now)) {
      if (!(await recordFollowup(tx, notificationId, followup))) continue;
      if (followup.kind === 'reminder') await supersedeEarlierReminders(tx, notificationId, followup.round);
      if (followup.kind === 'escalation') {
        queued.push(...(await queueDeliveries(tx, notificationId, 'email', uniqueAddresses(state.escalationRecipients), { followup })));
        // And to the escalation's channels, on the same delivery records (an email channel's addresses each once).
        const escalationAudience = { channels: state.escalationChannels, memberEmails: state.memberEmails, emailNotifications: state.emailNotifications };
        queued.push(...(await queueChannelDeliveries(tx, notificationId, escalationAudience, { followup })));
        continue;
      }
      // A reminder goes where the downtime went: every attached channel, the monitor's own email among them.
      queued.push(...(await queueChannelDeliveries(tx, notificationId, state, { followup })));
    }
    return queued;
  });
}

/**
 * Runs in every notifier beside the delivery sweeper: reminders and escalations of unacknowledged
 * downtimes (docs/alert-rules.md). What is recorded is sent at once; what fails, or what a crash
 * left unsent, is an ordinary pending delivery that the delivery sweeper retries. Postgres holds
 * all of the schedule: nothing is lost with a notifier, and no job or timer needs to survive one.
 */
export function startFollowupSweeper(deps: AttemptDeps, options: FollowupSweeperOptions = {}): FollowupSweeper {
  const log: Logger = deps.logger.child({ component: 'followup-sweeper' });
  const clock = options.clock ?? (() => new Date());

  const pass = async (now: Date): Promise<number> => {
    let recorded = 0;
    for (const candidate of await listFollowupCandidates(deps.dataSource.manager, now, BATCH)) {
      const queued = await recordDueFollowups(deps.dataSource, candidate.notificationId, now);
      if (queued.length === 0) continue;
      recorded += 1;
      const alert = await loadAlert(deps.dataSource.manager, alertRef(candidate.incidentId));
      if (!alert) continue; // its monitor was deleted a moment ago: the cascade removes the deliveries
      for (const delivery of queued) await attemptDelivery(deps, delivery, alert, { onlyIfDue: false });
    }
    if (recorded > 0) log.info({ recorded }, 'follow-ups of unacknowledged downtimes recorded');
    return recorded;
  };
  const periodic = startPeriodicPass((now?: Date) => pass(now ?? clock()), options.intervalMs ?? DEFAULT_FOLLOWUP_SWEEP_INTERVAL_MS, log, 'follow-up sweep');
  return { sweep: (now) => periodic.run(now), stop: () => periodic.stop() };
}
