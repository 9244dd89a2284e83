import type { DeliveryKind, DeliveryPhase, NotificationErrorDetails, NotificationType } from '@uptime/db';
import type { AttachedChannel } from '../alert';
import type { AlertContext, AlertKind } from '../alert';
import type { EmailMessage } from '../channels/email-channel';
import type { SlackMessage } from '../channels/slack';
import type { WebhookEvent } from '../channels/webhook';
import type { AlertWords } from './messages';

/** An alert's row as loadAlert() (alert.repository.ts) reads it: the columns of every kind, NULL where a kind has none. */
export interface AlertRow {
  id: number;
  kind: AlertKind;
  monitor_id: number;
  owner_id: number;
  member_emails: string[];
  monitor_name: string;
  monitor_url: string;
  email_notifications: boolean;
  channels: AttachedChannel[];
  escalation_channels: AttachedChannel[];
  alert_on_recovery: boolean;
  alert_on_slow: boolean;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  status_code: number | null;
  response_time: number | null;
  error: string | null;
  response_time_threshold: number | null;
  certificate_expires_at: Date | null;
  certificate_expiry_days: number | null;
}

/** What every kind has in common, read from the row by loadAlert(). */
export type AlertBaseOf = Pick<AlertContext, 'ref' | 'startedAt' | 'resolvedAt' | 'duration' | 'monitorId' | 'ownerId' | 'memberEmails'
  | 'monitorName' | 'monitorUrl' | 'emailNotifications' | 'channels' | 'escalationChannels'>;

/** One message of a delivery: which notification, its start or end, the notice or a follow-up. */
export interface MessageTarget {
  type: NotificationType;
  phase: DeliveryPhase;
  kind: DeliveryKind;
  /** A follow-up's due time; null for a notice. */
  followupDueAt: Date | null;
}

/**
 * What the end of an alert tells (docs/notifications.md): nothing; a `resolved` message of its own
 * notification ("no longer slow"); or a notification of its own (a downtime's `recovery`).
 */
export type AlertEnd<A extends AlertContext> =
  | { tells: 'nothing' }
  | { tells: 'resolved-message'; webhookEvent: WebhookEvent; isSent(alert: A): boolean }
  | { tells: 'notification'; type: NotificationType; message(alert: A): string; isSent(alert: A): boolean };

/**
 * A kind of alert: everything that differs between kinds. The path from status event to delivery
 * (notify-alert.ts), the notification records (notification.repository.ts), claims, retries and
 * channels are the same for every kind. Adding a kind is a module here, its entry in index.ts and,
 * when it has details of its own, their columns (docs/architecture.md, "Alerts").
 */
export interface AlertKindSpec<A extends AlertContext> {
  /** The alert's details from its row. */
  contextOf(base: AlertBaseOf, row: AlertRow): A;
  /** The type of the notification the alert opens: one per alert and type. */
  notificationType: NotificationType;
  /** notifications.message and error_details of that notification. */
  message(alert: A): string;
  errorDetails(alert: A): NotificationErrorDetails | null;
  /** The notification waits while a monitor this one depends on is offline (docs/alert-rules.md). */
  isSuppressedByDependencies: boolean;
  /** A notification created only after its alert ended (a backlog) still sends its opening message. */
  opensWhenOver: boolean;
  end: AlertEnd<A>;
  /**
   * What one delivery says, in words every channel renders: its subject, headline and facts.
   * The service channels (channels/channel-notice.ts) are made from these.
   */
  words(target: MessageTarget, alert: A): AlertWords;
  /** The email and the Slack message of one delivery. */
  email(target: MessageTarget, alert: A, from: string, to: string): EmailMessage;
  slack(target: MessageTarget, alert: A, appUrl: string): SlackMessage;
}
