import type { EntityManager } from '@uptime/db';
import type { MonitorScheduler } from '@uptime/queues';
import { bumpConfigVersions } from './agents.repository';

/**
 * After a change of the agents assigned to these monitors: a new config version (checks still
 * carrying the old agent list are dropped by the recorder) and a schedule whose job template
 * names the agents now assigned. Runs inside the caller's transaction, the schedule written
 * before commit like every schedule change (a Redis failure rolls the change back).
 */
export async function rescheduleMonitors(em: EntityManager, scheduler: MonitorScheduler, monitorIds: readonly number[]): Promise<void> {
  if (monitorIds.length === 0) return;
  // Loaded in this transaction, so agentIds already reflect the change.
  const monitors = await bumpConfigVersions(em, monitorIds);
  for (const m of monitors) if (m.status !== 'paused') await scheduler.schedule(m);
}
