import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES } from '@uptime/db';
import { dataEnvelope, listEnvelope, messageEnvelope } from '../common-schemas';
import { dataExample, EXAMPLE_DELIVERY, EXAMPLE_META, EXAMPLE_NOTIFICATION, listExample, messageExample } from '../examples';
import { ISO_DATE_MAX_LENGTH } from '../../notifications/notifications.params';
import { enumOf, INT32_MAX, int, ref, str } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ParameterSpec } from '../operation';

const BASE = '/api/v1/notifications';
const id = idParam('notification');
const page = pageParams(50, 100);
const since: ParameterSpec = {
  name: 'since',
  in: 'query',
  description: 'Only notifications that started at or after it; ISO 8601 date or date-time (a time without zone is UTC)',
  schema: str({ maxLength: ISO_DATE_MAX_LENGTH, examples: ['2026-11-21T00:00:00Z'] }),
};
const list = (description: string) => ({ description, schema: listEnvelope(ref('Notification')), example: listExample([EXAMPLE_NOTIFICATION]) });

/** `/notifications` (notifications.routes.ts, docs/notifications.md) and `/alerts` (alerts.routes.ts). */
export const NOTIFICATION_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: BASE,
    operationId: 'listNotifications',
    tag: 'Notifications',
    summary: 'List notifications',
    description: 'Newest first.',
    parameters: [
      ...page,
      { name: 'monitor_id', in: 'query', schema: int({ minimum: 1, maximum: INT32_MAX }) },
      { name: 'type', in: 'query', schema: enumOf(NOTIFICATION_TYPES) },
      { name: 'status', in: 'query', schema: enumOf(NOTIFICATION_STATUSES) },
      since,
    ],
    responses: { 200: list('A page of notifications') },
  },
  {
    method: 'get',
    path: `${BASE}/active`,
    operationId: 'listActiveNotifications',
    tag: 'Notifications',
    summary: 'Active notifications',
    description: '`meta.count` is the number of active notifications (all pages).',
    parameters: page,
    responses: {
      200: {
        description: 'A page of active notifications',
        schema: listEnvelope(ref('Notification'), 'MetaWithCount'),
        example: listExample([EXAMPLE_NOTIFICATION], { ...EXAMPLE_META, count: 1 }),
      },
    },
  },
  {
    method: 'get',
    path: `${BASE}/recent`,
    operationId: 'listRecentNotifications',
    tag: 'Notifications',
    summary: 'Notifications of the last 24 hours',
    parameters: page,
    responses: { 200: list('A page of notifications') },
  },
  {
    method: 'get',
    path: `${BASE}/{id}`,
    operationId: 'getNotification',
    tag: 'Notifications',
    summary: 'Get a notification',
    parameters: [id],
    description: 'With `deliveries`: every message of it, one per channel, recipient, phase and kind (a slow notification also has the messages of its end; a downtime its escalation and latest reminder round), and what became of each.',
    responses: {
      200: {
        description: 'The notification and its deliveries',
        schema: dataEnvelope(ref('NotificationWithDeliveries')),
        example: dataExample({ ...EXAMPLE_NOTIFICATION, deliveries: [EXAMPLE_DELIVERY] }),
      },
    },
    errors: ['NOTIFICATION_NOT_FOUND'],
  },
  {
    method: 'post',
    path: `${BASE}/{id}/acknowledge`,
    operationId: 'acknowledgeNotification',
    tag: 'Notifications',
    summary: 'Acknowledge a notification',
    description: 'Repeating it is a 200 that keeps the first acknowledged_at.',
    parameters: [id],
    responses: {
      200: {
        description: 'Acknowledged',
        schema: messageEnvelope(ref('Acknowledgement')),
        example: messageExample('Notification acknowledged', { id: 7, acknowledged: true, acknowledged_at: '2026-11-22T10:00:00.000Z' }),
      },
    },
    errors: ['NOTIFICATION_NOT_FOUND'],
  },
  {
    method: 'post',
    path: `${BASE}/{id}/resolve`,
    operationId: 'resolveNotification',
    tag: 'Notifications',
    summary: 'Resolve an active notification',
    description:
      'A manually resolved downtime produces no recovery notification, and a manually resolved slow one no "no longer slow" message; resolving a resolved one is 409 INVALID_STATE.',
    parameters: [id],
    responses: {
      200: {
        description: 'Resolved',
        schema: messageEnvelope(ref('Resolution')),
        example: messageExample('Notification resolved', { id: 7, status: 'resolved', resolved_at: '2026-11-22T10:00:00.000Z', duration: 120 }),
      },
    },
    errors: ['NOTIFICATION_NOT_FOUND', 'INVALID_STATE'],
  },
  {
    method: 'get',
    path: '/api/v1/alerts',
    operationId: 'listAlerts',
    tag: 'Notifications',
    summary: 'Alerts: your notifications, newest first',
    description: 'The same items as GET /notifications, filtered by `since`.',
    parameters: [...page, since],
    responses: { 200: list('A page of notifications') },
  },
];
