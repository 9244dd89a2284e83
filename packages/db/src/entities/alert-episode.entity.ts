import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ALERT_KINDS, type AlertKind } from './alert.entity';

/** The kinds of alert that are not downtimes: the rows of the view `alert_episodes`. */
export const ALERT_EPISODE_KINDS = ALERT_KINDS.filter((k): k is Exclude<AlertKind, 'downtime'> => k !== 'downtime');
export type AlertEpisodeKind = Exclude<AlertKind, 'downtime'>;

/**
 * A slow period or a certificate under its limit (docs/alert-rules.md), as the view
 * `alert_episodes` shows the alerts (alert.entity.ts) of those kinds.
 */
@Entity({ name: 'alert_episodes' })
export class AlertEpisode {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'monitor_id' }) monitorId!: number;
  @Column({ type: 'varchar', length: 16 }) kind!: AlertEpisodeKind;
  @Column({ type: 'timestamptz', name: 'started_at' }) startedAt!: Date;
  @Column({ type: 'timestamptz', name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'integer', name: 'response_time_threshold', nullable: true }) responseTimeThreshold!: number | null;
  @Column({ type: 'timestamptz', name: 'certificate_expires_at', nullable: true }) certificateExpiresAt!: Date | null;
  @Column({ type: 'smallint', name: 'certificate_expiry_days', nullable: true }) certificateExpiryDays!: number | null;
}
