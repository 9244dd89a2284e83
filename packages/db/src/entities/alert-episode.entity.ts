import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const ALERT_EPISODE_KINDS = ['slow', 'certificate'] as const;
export type AlertEpisodeKind = (typeof ALERT_EPISODE_KINDS)[number];

/**
 * Every kind of alert (docs/architecture.md, "Alerts"): a downtime, whose row is an incident (the
 * API shows incidents by their ids), and the alert episodes, rows of this table with their kind.
 */
export type AlertKind = 'downtime' | AlertEpisodeKind;
export type AlertTable = 'incidents' | 'alert_episodes';
export const alertTableOf = (kind: AlertKind): AlertTable => (kind === 'downtime' ? 'incidents' : 'alert_episodes');

/**
 * A period worth one notification that is not a downtime (docs/alert-rules.md): the monitor being
 * slow (`slow`), or its certificate being under `certificate_expiry_days` (`certificate`, until
 * the certificate changes). Opened and closed by the check-worker under the monitor's row lock.
 */
@Entity({ name: 'alert_episodes' })
export class AlertEpisode {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'monitor_id' }) monitorId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: AlertEpisodeKind;
  @Column({ type: 'timestamptz', name: 'started_at' }) startedAt!: Date;
  @Column({ type: 'timestamptz', name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  /** slow: the response time of the check that opened it, and the threshold it exceeded. */
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'integer', name: 'response_time_threshold', nullable: true }) responseTimeThreshold!: number | null;
  /** certificate: the certificate's notAfter, and the limit it fell under. */
  @Column({ type: 'timestamptz', name: 'certificate_expires_at', nullable: true }) certificateExpiresAt!: Date | null;
  @Column({ type: 'smallint', name: 'certificate_expiry_days', nullable: true }) certificateExpiryDays!: number | null;
}
