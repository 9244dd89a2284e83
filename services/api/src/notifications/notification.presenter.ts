import type { NotificationAcknowledgement, NotificationResolution, NotificationView } from './notifications.service';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The notification as the API shows it (contract §2: ISO 8601 UTC with ms, durations in seconds). */
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
    error_details: n.errorDetails,
    created_at: n.createdAt.toISOString(),
  };
}

export type NotificationResponse = ReturnType<typeof toNotificationResponse>;

/** `data` of POST /notifications/{id}/acknowledge (seed: id, acknowledged, acknowledged_at). */
export function toAcknowledgementResponse(a: NotificationAcknowledgement) {
  return { id: a.id, acknowledged: a.acknowledged, acknowledged_at: iso(a.acknowledgedAt) };
}

/** `data` of POST /notifications/{id}/resolve (seed: id, status, resolved_at; plus duration). */
export function toResolutionResponse(r: NotificationResolution) {
  return { id: r.id, status: r.status, resolved_at: iso(r.resolvedAt), duration: r.duration };
}
