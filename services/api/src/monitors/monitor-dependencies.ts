import type { EntityManager } from '@uptime/db';
import { ValidationError } from '@uptime/errors';

const refuse = (message: string): ValidationError => new ValidationError('Invalid body: depends_on', { depends_on: [message] });

/**
 * Checks a monitor's `depends_on` (docs/alert-rules.md): every id is another monitor of the same
 * owner, and no chain of dependencies leads back to the monitor. `monitorId` is null on create:
 * a new monitor has no dependents yet, so it cannot close a cycle.
 *
 * Changes to one owner's dependencies are serialised by a transaction-scoped advisory lock, so
 * two updates that together would make a cycle (A→B and B→A at once) cannot both pass the check.
 */
export async function assertDependencies(em: Pick<EntityManager, 'query'>, ownerId: number, monitorId: number | null, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (monitorId !== null && ids.includes(monitorId)) throw refuse('a monitor cannot depend on itself');
  await em.query(`SELECT pg_advisory_xact_lock(hashtext('monitor-dependencies'), $1)`, [ownerId]);
  const owned: { id: number }[] = await em.query('SELECT id FROM monitors WHERE owner_id = $1 AND id = ANY($2::int[])', [ownerId, ids]);
  const ownedIds = new Set(owned.map((r) => r.id));
  const unknown = ids.filter((id) => !ownedIds.has(id));
  if (unknown.length > 0) throw refuse(`not monitors of yours: ${unknown.join(', ')}`);
  if (monitorId === null) return;
  // Everything the new parents depend on, directly or not: the monitor among them is a cycle.
  const [reach]: { cycle: boolean }[] = await em.query(
    `WITH RECURSIVE ancestors(id) AS (
       SELECT unnest($1::int[])
       UNION
       SELECT unnest(m.depends_on) FROM monitors m JOIN ancestors a ON m.id = a.id WHERE m.owner_id = $3
     )
     SELECT EXISTS (SELECT 1 FROM ancestors WHERE id = $2) AS cycle`,
    [ids, monitorId, ownerId],
  );
  if (reach?.cycle) throw refuse(`this would make a cycle: monitor ${monitorId} would depend on itself`);
}
