import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Every kind of alert (docs/architecture.md, "Alerts"): a downtime (the monitor offline), the
 * monitor being slow, its certificate under the monitor's expiry limit.
 */
export const ALERT_KINDS = ['downtime', 'slow', 'certificate'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/**
 * An alert: opened and resolved by the check-worker under its monitor's row lock, with the
 * details of the check that opened it that its kind records (the others stay null). Its
 * notifications name it by `alert_id`. The views `incidents` (the downtimes, by the ids the API
 * shows) and `alert_episodes` (the other kinds) show it as the tables of those names did
 * (migration 1732270170000).
 */
@Entity({ name: 'alerts' })
export class Alert {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'monitor_id' }) monitorId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: AlertKind;
  @Column({ type: 'timestamptz', name: 'started_at' }) startedAt!: Date;
  @Column({ type: 'timestamptz', name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  /** Seconds from start to end, recorded when it is resolved. */
  @Column({ type: 'integer', nullable: true }) duration!: number | null;
  /** downtime: the failed check. */
  @Column({ type: 'integer', name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  /** downtime and slow: the check's response time; slow: the threshold it exceeded. */
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'integer', name: 'response_time_threshold', nullable: true }) responseTimeThreshold!: number | null;
  /** certificate: the certificate's notAfter, and the limit (days) it fell under. */
  @Column({ type: 'timestamptz', name: 'certificate_expires_at', nullable: true }) certificateExpiresAt!: Date | null;
  @Column({ type: 'smallint', name: 'certificate_expiry_days', nullable: true }) certificateExpiryDays!: number | null;
}
