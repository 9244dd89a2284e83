import { In } from 'typeorm';
import { Monitor, type EntityManager } from '@uptime/db';
import type { MonitorScheduler } from '@uptime/queues';

/**
 * Locks monitors in id order (FOR UPDATE), as the check-workers' batches do before they touch
 * agent rows: every transaction that changes both takes monitors first, so none deadlock.
 */
export async function lockMonitors(em: EntityManager, sql: string, params: unknown[]): Promise<number[]> {
  const rows: { id: number }[] = await em.query(`SELECT m.id FROM monitors m WHERE m.id IN (${sql}) ORDER BY m.id FOR UPDATE OF m`, params);
  return rows.map((r) => r.id);
}

/**
 * After a change of the agents assigned to these monitors: a new config version (checks still
 * carrying the old agent list are dropped by the recorder) and a schedule whose job template
 * names the agents now assigned. Runs inside the caller's transaction, the schedule written
 * before commit like every schedule change (a Redis failure rolls the change back).
 */
export async function rescheduleMonitors(em: EntityManager, scheduler: MonitorScheduler, monitorIds: readonly number[]): Promise<void> {
  if (monitorIds.length === 0) return;
  await em.query(`UPDATE monitors SET config_version = config_version + 1, updated_at = now() WHERE id = ANY($1)`, [[...monitorIds]]);
  // Loaded in this transaction, so agentIds already reflect the change.
  const monitors = await em.getRepository(Monitor).findBy({ id: In([...monitorIds]) });
  for (const m of monitors) if (m.status !== 'paused') await scheduler.schedule(m);
}
