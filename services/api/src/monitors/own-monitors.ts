import type { EntityManager } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { foreignMonitorIds } from './monitors.repository';

/**
 * 400 naming monitor_ids when one is not the owner's; the owner's stay locked against deletion
 * until the transaction ends. For every body that lists monitors (status pages, maintenance
 * windows).
 */
export async function assertOwnMonitors(em: EntityManager, organizationId: number, monitorIds: number[]): Promise<void> {
  const foreign = await foreignMonitorIds(em, organizationId, monitorIds);
  if (foreign.length > 0) {
    throw new ValidationError('Invalid body: monitor_ids', { monitor_ids: [`monitor_ids must hold only your own monitors; not found: ${foreign.join(', ')}`] });
  }
}
