import type { DataSource } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { recordAudit, type AuditContext } from '../audit/audit';
import type { PageRequest } from '../http/pagination';
import { isOwnPage } from '../status-page-incidents/incidents.repository';
import { countConfirmed, deleteSubscriber, listSubscribers, type SubscriberRow } from './subscribers.repository';

async function assertOwnPage(ds: DataSource, organizationId: number, pageId: number): Promise<void> {
  if (!(await isOwnPage(ds, organizationId, pageId))) throw new NotFoundError('status page', pageId);
}

/** The page's subscribers, newest first, with how many there are and how many are confirmed. */
export async function listPageSubscribers(
  ds: DataSource,
  organizationId: number,
  pageId: number,
  page: PageRequest,
): Promise<{ items: SubscriberRow[]; total: number; confirmed: number }> {
  await assertOwnPage(ds, organizationId, pageId);
  const { items, total } = await listSubscribers(ds, pageId, page.limit, page.offset);
  return { items, total, confirmed: await countConfirmed(ds, pageId) };
}

/** The owner removes a subscriber: nothing more is sent to them, and their row is gone. */
export async function removePageSubscriber(ds: DataSource, ctx: AuditContext, pageId: number, subscriberId: number): Promise<void> {
  await assertOwnPage(ds, ctx.organizationId, pageId);
  await ds.transaction(async (em) => {
    if (!(await deleteSubscriber(em, pageId, subscriberId))) throw new NotFoundError('subscriber', subscriberId);
    await recordAudit(em, { ...ctx, action: 'status_page_subscriber.remove', resourceId: subscriberId });
  });
}
