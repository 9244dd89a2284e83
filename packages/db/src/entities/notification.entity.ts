import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** downtime and recovery are about a downtime alert; slow and certificate about an alert of their kind (docs/notifications.md). */
export const NOTIFICATION_TYPES = ['downtime', 'recovery', 'slow', 'certificate'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_STATUSES = ['active', 'resolved'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export interface NotificationErrorDetails {
  status_code: number | null;
  response_time: number | null;
  error_message: string;
}

/**
 * About one alert (`alert_id`), at most one notification of each type per alert (unique alert_id +
 * type). `incident_id` and `episode_id` are that alert's id under the name its kind had before the
 * alerts were one table (migration 1732270170000): a trigger keeps them in step with `alert_id`.
 */
@Entity({ name: 'notifications' })
export class Notification {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'user_id' }) userId!: number;
  @Column({ type: 'integer', name: 'monitor_id' }) monitorId!: number;
  @Column({ type: 'integer', name: 'alert_id' }) alertId!: number;
  /** `alert_id` when the alert is a downtime, else null. */
  @Column({ type: 'integer', name: 'incident_id', nullable: true }) incidentId!: number | null;
  /** `alert_id` when the alert is of another kind, else null. */
  @Column({ type: 'integer', name: 'episode_id', nullable: true }) episodeId!: number | null;
  @Column({ type: 'varchar', length: 16 }) type!: NotificationType;
  @Column({ type: 'varchar', length: 10 }) status!: NotificationStatus;
  @Column({ type: 'text' }) message!: string;
  @Column({ type: 'timestamptz', name: 'started_at' }) startedAt!: Date;
  @Column({ type: 'timestamptz', name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  @Column({ type: 'integer', nullable: true }) duration!: number | null;
  @Column({ type: 'boolean', name: 'resolved_manually', default: false }) resolvedManually!: boolean;
  @Column({ type: 'varchar', length: 10, name: 'notification_method', default: 'email' }) notificationMethod!: 'email';
  @Column({ type: 'boolean', default: false }) acknowledged!: boolean;
  @Column({ type: 'timestamptz', name: 'acknowledged_at', nullable: true }) acknowledgedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'email_sent_at', nullable: true }) emailSentAt!: Date | null;
  @Column({ type: 'jsonb', name: 'error_details', nullable: true }) errorDetails!: NotificationErrorDetails | null;
  /** Recorded but sent to nobody: a monitor this one depends on was offline (docs/alert-rules.md). */
  @Column({ type: 'boolean', default: false }) suppressed!: boolean;
  /** The offline parents that suppressed it; empty when not suppressed. */
  @Column({ type: 'integer', array: true, name: 'suppressed_by', default: () => "'{}'" }) suppressedBy!: number[];
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
