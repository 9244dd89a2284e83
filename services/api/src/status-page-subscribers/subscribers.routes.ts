import { Router, type Request } from 'express';
import type { DataSource } from '@uptime/db';
import { callerOf } from '../auth/caller';
import { auditContextOf } from '../audit/audit';
import { sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import type { SubscriberRow } from './subscribers.repository';
import { listPageSubscribers, removePageSubscriber } from './subscribers.service';

const pageIdOf = (req: Request): number => parseId(req.params.id, 'status page');

const toSubscriberResponse = (s: SubscriberRow) => ({
  id: s.id,
  email: s.email,
  status: s.status,
  confirmed_at: s.confirmed_at?.toISOString() ?? null,
  unsubscribed_at: s.unsubscribed_at?.toISOString() ?? null,
  created_at: s.created_at.toISOString(),
});

/** `/status-pages/{id}/subscribers`: who follows the page by email (docs/status-pages.md, "Subscribers"). */
export function subscribersRouter(deps: { ds: DataSource }): Router {
  const router = Router({ mergeParams: true });

  router.get('/', async (req, res) => {
    const pageId = pageIdOf(req);
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 25, maxLimit: 100 });
    const { items, total, confirmed } = await listPageSubscribers(deps.ds, callerOf(req).organizationId, pageId, page);
    sendList(res, items.map(toSubscriberResponse), { page: page.page, limit: page.limit, total }, { counts: { total, confirmed } });
  });

  router.delete('/:subscriber_id', async (req, res) => {
    const pageId = pageIdOf(req);
    await removePageSubscriber(deps.ds, auditContextOf(req), pageId, parseId(req.params.subscriber_id, 'subscriber'));
    sendMessage(res, 'Subscriber removed');
  });

  return router;
}
