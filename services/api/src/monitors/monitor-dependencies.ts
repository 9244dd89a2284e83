import type { EntityManager } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { lockDependenciesOf, ownedMonitorIds, reachesMonitor } from './monitors.repository';

const refuse = (message: string): ValidationError => new ValidationError('Invalid body: depends_on', { depends_on: [message] });

/**
 * Checks a monitor's `depends_on` (docs/alert-rules.md): every id is another monitor of the same
 * owner, and no chain of dependencies leads back to the monitor. `monitorId` is null on create:
 * a new monitor has no dependents yet, so it cannot close a cycle.
 *
 * Changes to one owner's dependencies are serialised by a transaction-scoped advisory lock, so
 * two updates that together would make a cycle (A→B and B→A at once) cannot both pass the check.
 */
export async function assertDependencies(em: Pick<EntityManager, 'query'>, organizationId: number, monitorId: number | null, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (monitorId !== null && ids.includes(monitorId)) throw refuse('a monitor cannot depend on itself');
  await lockDependenciesOf(em, organizationId);
  const ownedIds = new Set(await ownedMonitorIds(em, organizationId, ids));
  const unknown = ids.filter((id) => !ownedIds.has(id));
  if (unknown.length > 0) throw refuse(`not monitors of yours: ${unknown.join(', ')}`);
  if (monitorId === null) return;
  if (await reachesMonitor(em, organizationId, ids, monitorId)) throw refuse(`this would make a cycle: monitor ${monitorId} would depend on itself`);
}
