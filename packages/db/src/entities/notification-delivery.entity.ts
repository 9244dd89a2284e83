import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every channel type a delivery goes through (docs/channels.md); the three first also as a monitor's own settings. */
export const DELIVERY_CHANNELS = ['email', 'slack', 'webhook', 'discord', 'telegram', 'teams', 'pagerduty', 'ntfy', 'pushover', 'google_chat', 'mattermost'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/**
 * `ambiguous`: the last attempt timed out after its request was written, so the receiver may have
 * it; it is retried like `pending` and the delivery is marked `possible_duplicate`.
 */
export const DELIVERY_STATUSES = ['pending', 'sending', 'ambiguous', 'sent', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Which message of its notification a delivery carries: the notification's own (`notice`), a
 * reminder of an unacknowledged downtime, or its escalation (docs/alert-rules.md). A follow-up
 * the downtime outlived (acknowledged or ended before it went out) is `cancelled`.
 */
export const DELIVERY_KINDS = ['notice', 'reminder', 'escalation'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];
/** The follow-ups of a downtime: reminders and its escalation. */
export type FollowupKind = Exclude<DeliveryKind, 'notice'>;

/**
 * Which phase of its notification a delivery belongs to: `opened` (the notification itself, and
 * its reminders and escalation), `resolved` (its end, sent for a slow notification: "no longer
 * slow"; docs/notifications.md) or `acknowledged` (a downtime acknowledged in this product, told
 * to the channels whose service tracks it: PagerDuty; docs/channels.md).
 */
export const DELIVERY_PHASES = ['opened', 'resolved', 'acknowledged'] as const;
export type DeliveryPhase = (typeof DELIVERY_PHASES)[number];

/**
 * One message (kind, round, phase) of one notification on one channel to one recipient (unique), leased by one sender
 * at a time (docs/reliability.md, "Notifications under faults").
 */
@Entity({ name: 'notification_deliveries' })
export class NotificationDelivery {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  /** Null for a status page subscriber's email, which names its event and subscriber instead. */
  @Column({ type: 'integer', name: 'notification_id', nullable: true }) notificationId!: number | null;
  /** A status page subscriber's email: the event it tells of and the subscriber (docs/status-pages.md, "Subscribers"). */
  @Column({ type: 'integer', name: 'page_event_id', nullable: true }) pageEventId!: number | null;
  @Column({ type: 'integer', name: 'subscriber_id', nullable: true }) subscriberId!: number | null;
  @Column({ type: 'varchar', length: 20, default: 'email' }) channel!: DeliveryChannel;
  @Column({ type: 'varchar', length: 10, default: 'notice' }) kind!: DeliveryKind;
  /** The reminder's number (1, 2, ...); 1 for the escalation; 0 for a notice. Part of the unique key. */
  @Column({ type: 'integer', default: 0 }) round!: number;
  @Column({ type: 'varchar', length: 16, default: 'opened' }) phase!: DeliveryPhase;
  @Column({ type: 'varchar', length: 2048 }) recipient!: string;
  @Column({ type: 'varchar', length: 10, default: 'pending' }) status!: DeliveryStatus;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'text', name: 'last_error', nullable: true }) lastError!: string | null;
  /** Stays the same on every retry (the webhook's X-Uptime-Delivery). */
  @Column({ type: 'uuid', name: 'delivery_uid' }) deliveryUid!: string;
  @Column({ type: 'uuid', name: 'claim_token', nullable: true }) claimToken!: string | null;
  @Column({ type: 'timestamptz', name: 'lease_until', nullable: true }) leaseUntil!: Date | null;
  @Column({ type: 'timestamptz', name: 'next_attempt_at' }) nextAttemptAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_attempt_at', nullable: true }) lastAttemptAt!: Date | null;
  @Column({ type: 'boolean', name: 'possible_duplicate', default: false }) possibleDuplicate!: boolean;
  @Column({ type: 'timestamptz', name: 'sent_at', nullable: true }) sentAt!: Date | null;
  /** Sent to the log only: no mail transport was configured (shown as `logged`, docs/notifications.md). */
  @Column({ type: 'boolean', name: 'logged_only', default: false }) loggedOnly!: boolean;
  @Column({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}

/**
 * A recipient as shown outside the notifier: a Slack incoming-webhook URL is a credential (anyone
 * holding it can post to the channel), so only its origin is shown; other recipients as they are.
 */
export function displayRecipient(channel: DeliveryChannel, recipient: string): string {
  // A channel's delivery names the channel (`channel:<id>`), never its URL (docs/channels.md).
  if (channel !== 'slack' || recipient.startsWith('channel:')) return recipient;
  try {
    return `${new URL(recipient).origin}/…`;
  } catch {
    return '…';
  }
}
