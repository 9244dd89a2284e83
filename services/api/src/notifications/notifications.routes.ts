import { Router, type Request, type Response } from 'express';
import type { DataSource } from '@uptime/db';
import { callerOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { metaFor, sendData, sendList, sendMessage, type Pagination } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage, type PageRequest } from '../http/pagination';
import { listDeliveries } from './deliveries.repository';
import { toAcknowledgementResponse, toNotificationDetailResponse, toNotificationResponse, toResolutionResponse } from './notification.presenter';
import { parseNotificationFilters } from './notifications.params';
import {
  acknowledgeNotification,
  getNotification,
  listActiveNotifications,
  listNotifications,
  listRecentNotifications,
  resolveNotification,
} from './notifications.service';
import type { NotificationPage } from './notifications.repository';

const PAGE_LIMITS = { defaultLimit: 50, maxLimit: 100 } as const;

const pageOf = (req: Request): PageRequest => parsePage(req.query as Record<string, unknown>, PAGE_LIMITS);

function sendPage(res: Response, page: PageRequest, result: NotificationPage): void {
  sendList(res, result.items.map(toNotificationResponse), { page: page.page, limit: page.limit, total: result.total });
}

/** The same six fields sendList computes; needed here because /active adds to `meta`. */
function paginationOf(page: PageRequest, total: number): Pagination {
  const pages = Math.ceil(total / page.limit);
  return { page: page.page, limit: page.limit, total, pages, has_next: page.page < pages, has_prev: page.page > 1 };
}

/** `/notifications`: the caller's downtime and recovery notifications (docs/notifications.md). */
export function notificationsRouter(ds: DataSource): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const page = pageOf(req);
    const filters = parseNotificationFilters(req.query as Record<string, unknown>);
    sendPage(res, page, await listNotifications(ds, callerOf(req).organizationId, filters, page));
  });

  // /active and /recent are declared before /:id, which would otherwise take them as ids.
  router.get('/active', async (req, res) => {
    const page = pageOf(req);
    const result = await listActiveNotifications(ds, callerOf(req).organizationId, page);
    // meta.count is the number of active notifications (docs/notifications.md); it is the list's total,
    // not the size of this page.
    res.status(200).json({
      data: result.items.map(toNotificationResponse),
      pagination: paginationOf(page, result.total),
      meta: metaFor(res, { count: result.total }),
    });
  });

  router.get('/recent', async (req, res) => {
    const page = pageOf(req);
    sendPage(res, page, await listRecentNotifications(ds, callerOf(req).organizationId, page));
  });

  router.get('/:id', async (req, res) => {
    const notification = await getNotification(ds, callerOf(req).organizationId, parseId(req.params.id, 'notification'));
    sendData(res, toNotificationDetailResponse(notification, await listDeliveries(ds, notification.id)));
  });

  router.post('/:id/acknowledge', async (req, res) => {
    const acknowledged = await acknowledgeNotification(ds, callerOf(req).organizationId, parseId(req.params.id, 'notification'), auditActorOf(req));
    sendMessage(res, 'Notification acknowledged', toAcknowledgementResponse(acknowledged));
  });

  router.post('/:id/resolve', async (req, res) => {
    const resolved = await resolveNotification(ds, callerOf(req).organizationId, parseId(req.params.id, 'notification'), auditActorOf(req));
    sendMessage(res, 'Notification resolved', toResolutionResponse(resolved));
  });

  return router;
}
