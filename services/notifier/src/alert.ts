import type { AlertKind, DeliveryChannel } from '@uptime/db';

/**
 * The alert model of the notifier (docs/architecture.md, "Alerts"): every alert is one thing with
 * a kind, opened and resolved by the check-worker, with its notifications and their deliveries.
 * The types only: the SQL is in alert.repository.ts, what each kind sends in alert-kinds/.
 */

/**
 * The kinds (`AlertKind`). Every alert is a row of `alerts`, whatever its kind; a notification
 * names it by `alert_id`, a status event by `incidentId` (a downtime) or `episodeIds` (the others).
 */
export type { AlertKind };

/** An alert by its row: what status events, notifications and deliveries point at. */
export interface AlertRef {
  id: number;
}

export const alertRef = (id: number): AlertRef => ({ id });
/** A downtime by the id the API shows it by (an incident's); the same id space as every alert. */
export const incidentRef = alertRef;

/** "incident 12" (a downtime) or "episode 7" (another kind), for logs and errors; "alert 12" while its kind is unknown. */
export const describeAlert = (ref: AlertRef, kind?: AlertKind): string =>
  `${kind === undefined ? 'alert' : kind === 'downtime' ? 'incident' : 'episode'} ${ref.id}`;

/** Who hears of a monitor's alerts and how: the part of an alert every channel reads. */
export interface AlertAudience {
  monitorId: number;
  ownerId: number;
  /** The addresses of the organization's members with alerts on: the recipients when the monitor names none. */
  memberEmails: string[];
  monitorName: string;
  monitorUrl: string;
  /**
   * The owner's email_notifications preference (docs/dashboard.md): off, the monitor's own email
   * channel sends nothing (the notifications are still recorded).
   */
  emailNotifications: boolean;
  /**
   * The channels attached to the monitor, id order: the organization's, and the monitor's own
   * email, Slack and webhook channels while enabled (docs/channels.md).
   */
  channels: AttachedChannel[];
  /** The organization's channels the monitor's escalation goes to (docs/alert-rules.md), id order. */
  escalationChannels: AttachedChannel[];
}

/** A channel attached to the monitor: its type, plain config and sealed secrets (opened only to send). */
export interface AttachedChannel {
  id: number;
  /** A channel's type is one of the delivery channels (the table's CHECK and DELIVERY_CHANNELS list the same). */
  type: DeliveryChannel;
  config: Record<string, unknown>;
  sealed: string | null;
  /** The monitor's own channel (its alert-settings fields): an own email channel without addresses mails the members. */
  own: boolean;
}

/** What every alert has, whatever its kind. */
interface AlertBase extends AlertAudience {
  ref: AlertRef;
  startedAt: Date;
  /** Null while the alert is open. */
  resolvedAt: Date | null;
  /** Seconds; null while unresolved. */
  duration: number | null;
}

/** The monitor was offline: its notifications are `downtime`, then `recovery`. */
export interface DowntimeAlert extends AlertBase {
  kind: 'downtime';
  alertOnRecovery: boolean;
  /** The check that opened it. */
  statusCode: number | null;
  responseTime: number | null;
  error: string | null;
}

/** The monitor was slow: one `slow` notification, and a "no longer slow" message at its end. */
export interface SlowAlert extends AlertBase {
  kind: 'slow';
  alertOnSlow: boolean;
  /** The response time of the check that opened it, and the threshold it exceeded. */
  responseTime: number | null;
  responseTimeThreshold: number | null;
}

/** The certificate was under the monitor's limit: one `certificate` notification, nothing at its end. */
export interface CertificateAlert extends AlertBase {
  kind: 'certificate';
  /** The certificate's notAfter and the limit (days) it fell under. */
  certificateExpiresAt: Date | null;
  certificateExpiryDays: number | null;
}

/** An alert with what notifying about it needs: its details, its monitor's settings and owner. */
export type AlertContext = DowntimeAlert | SlowAlert | CertificateAlert;

/** The alert of kind `K`. */
export type AlertOf<K extends AlertKind> = Extract<AlertContext, { kind: K }>;
