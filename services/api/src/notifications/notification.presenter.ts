import { displayRecipient } from '@uptime/db';
import type { DeliveryView } from './deliveries.repository';
import type { NotificationAcknowledgement, NotificationResolution, NotificationView } from './notifications.repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The notification as the API shows it (docs/api.md: ISO 8601 UTC with ms, durations in seconds). */
export function toNotificationResponse(n: NotificationView) {
  return {
    id: n.id,
    monitor_id: n.monitorId,
    monitor_name: n.monitorName,
    monitor_url: n.monitorUrl,
    type: n.type,
    message: n.message,
    status: n.status,
    started_at: n.startedAt.toISOString(),
    resolved_at: iso(n.resolvedAt),
    duration: n.duration,
    notification_method: n.notificationMethod,
    acknowledged: n.acknowledged,
    acknowledged_at: iso(n.acknowledgedAt),
    email_sent_at: iso(n.emailSentAt),
    email_logged_only: n.emailLoggedOnly,
    error_details: n.errorDetails,
    created_at: n.createdAt.toISOString(),
    possible_duplicate: n.possibleDuplicate,
    suppressed: n.suppressed,
    suppressed_by: n.suppressedBy,
  };
}

export type NotificationResponse = ReturnType<typeof toNotificationResponse>;

/**
 * A delivery as the API shows it. `sending` and `ambiguous` (an attempt that may have arrived, to
 * be retried) are both still `pending` to the reader; the latter shows as `possible_duplicate`. An
 * email that only went to the log (no mail transport) is `logged`, never `sent`.
 */
export function toDeliveryResponse(d: DeliveryView) {
  return {
    channel: d.channel,
    kind: d.kind,
    reminder: d.kind === 'reminder' ? d.round : null,
    phase: d.phase,
    recipient: displayRecipient(d.channel, d.recipient),
    status: d.status === 'sent' && d.loggedOnly ? ('logged' as const) : d.status === 'sent' || d.status === 'failed' || d.status === 'cancelled' ? d.status : ('pending' as const),
    attempts: d.attempts,
    last_attempt_at: iso(d.lastAttemptAt),
    sent_at: iso(d.sentAt),
    error: d.error,
    possible_duplicate: d.possibleDuplicate,
  };
}

export type DeliveryResponse = ReturnType<typeof toDeliveryResponse>;

/** `GET /notifications/{id}`: the notification with every delivery of it. */
export function toNotificationDetailResponse(n: NotificationView, deliveries: DeliveryView[]) {
  return { ...toNotificationResponse(n), deliveries: deliveries.map(toDeliveryResponse) };
}

export type NotificationDetailResponse = ReturnType<typeof toNotificationDetailResponse>;

/** `data` of POST /notifications/{id}/acknowledge (id, acknowledged, acknowledged_at; docs/notifications.md). */
export function toAcknowledgementResponse(a: NotificationAcknowledgement) {
  return { id: a.id, acknowledged: a.acknowledged, acknowledged_at: iso(a.acknowledgedAt) };
}

/** `data` of POST /notifications/{id}/resolve (id, status, resolved_at, duration; docs/notifications.md). */
export function toResolutionResponse(r: NotificationResolution) {
  return { id: r.id, status: r.status, resolved_at: iso(r.resolvedAt), duration: r.duration };
}
