import { Router } from 'express';
import type { DataSource } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { callerOf } from '../auth/caller';
import { sendList } from '../http/envelope';
import { parsePage } from '../http/pagination';
import { toNotificationResponse } from '../notifications/notification.presenter';
import { parseIsoDate } from '../notifications/notifications.params';
import { listNotifications } from '../notifications/notifications.service';

/** `since` of GET /alerts: notifications that started at or after it. */
function parseSince(query: Record<string, unknown>): Date | undefined {
  const raw = query.since;
  if (raw === undefined || raw === '') return undefined;
  const since = typeof raw === 'string' ? parseIsoDate(raw) : undefined;
  if (!since) throw new ValidationError('Invalid query: since', { since: ['since must be an ISO 8601 date or date-time'] });
  return since;
}

/**
 * `/alerts` (docs/monitors.md, Other operations): the caller's downtime and recovery notifications,
 * newest first, in the same shape as /notifications.
 */
export function alertsRouter(ds: DataSource): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const page = parsePage(query, { defaultLimit: 50, maxLimit: 100 });
    const since = parseSince(query);
    const result = await listNotifications(ds, callerOf(req).organizationId, since ? { since } : {}, page);
    sendList(res, result.items.map(toNotificationResponse), { page: page.page, limit: page.limit, total: result.total });
  });
  return router;
}
