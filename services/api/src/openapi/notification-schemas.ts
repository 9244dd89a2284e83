import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES, type NotificationErrorDetails } from '@uptime/db';
import type { toAcknowledgementResponse, NotificationResponse, toResolutionResponse } from '../notifications/notification.presenter';
import { deliverySchemas } from './delivery-schemas';
import { arrayOf, bool, enumOf, int, INT32_MAX, nullable, objectOf, timestamp, type JsonSchema } from './json-schema';
import { id, monitorField, ms, statusCode, text } from './schema-parts';

export const notification = objectOf<NotificationResponse>(
  {
    id: id(),
    monitor_id: id(),
    monitor_name: monitorField('name'),
    monitor_url: monitorField('url', { format: 'uri' }),
    type: enumOf(NOTIFICATION_TYPES, {
      description:
        'downtime: the monitor went offline; recovery: it came back online; slow: it became slow (resolved when it stops); certificate: its TLS certificate is close to expiry (docs/notifications.md)',
    }),
    message: text(),
    status: enumOf(NOTIFICATION_STATUSES, {
      description:
        'active while the downtime, slowness or expiring certificate lasts; resolved when it ended (the monitor recovered, is fast again, or its certificate changed) or the user resolved it (a recovery is resolved at once)',
    }),
    started_at: timestamp(),
    resolved_at: nullable(timestamp()),
    duration: nullable(int({ minimum: 0, maximum: INT32_MAX, description: 'Seconds from started_at to resolved_at; null while active' })),
    notification_method: enumOf(['email']),
    acknowledged: bool(),
    acknowledged_at: nullable(timestamp()),
    email_sent_at: nullable(timestamp({ description: 'When the mail transport accepted the email (when it was logged, with email_logged_only)' })),
    email_logged_only: bool({
      description: 'Its email was only written to the log, no mail transport (SendGrid, SMTP) being configured: none went out (docs/notifications.md)',
    }),
    error_details: nullable(
      objectOf<NotificationErrorDetails>({ status_code: statusCode(), response_time: ms('Response time'), error_message: text() }),
    ),
    created_at: timestamp(),
    possible_duplicate: bool({ description: 'One of its deliveries may have reached its receiver twice (see NotificationDelivery)' }),
    suppressed: bool({
      description: 'Recorded but sent to nobody: a monitor this one depends on (depends_on) was offline (docs/alert-rules.md)',
    }),
    suppressed_by: arrayOf(id(), { maxItems: 20, description: 'The offline monitors that suppressed it; empty when not suppressed' }),
  },
  { description: 'A downtime, recovery, slow or certificate notification (docs/notifications.md)' },
);

/** The notification resources, by component name (in the document's order). */
export const NOTIFICATION_SCHEMAS: Record<string, JsonSchema> = {
  Notification: notification,
  ...deliverySchemas(notification),
  Acknowledgement: objectOf<ReturnType<typeof toAcknowledgementResponse>>({
    id: id(),
    acknowledged: bool(),
    acknowledged_at: nullable(timestamp()),
  }),
  Resolution: objectOf<ReturnType<typeof toResolutionResponse>>({
    id: id(),
    status: enumOf(NOTIFICATION_STATUSES),
    resolved_at: nullable(timestamp()),
    duration: nullable(int({ minimum: 0, maximum: INT32_MAX })),
  }),
};
