import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One check of one monitor. Kept narrow, 8 columns in alignment order (migration
 * 1732270005000): millions of these exist. The check started `start_lag_ms` after `scheduled_at`.
 */
/**
 * The most a check's start may lag its planned time as stored (either way). A check that starts
 * later still (all workers down for over a day) is recorded as one day late; in exchange a read
 * by check time can bound the planned time and touch only the daily partitions it needs.
 */
export const MAX_START_LAG_MS = 86_400_000;

@Entity({ name: 'check_results' })
export class CheckResult {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column({ type: 'integer', name: 'monitor_id' }) monitorId!: number;
  /** The time the schedule planned the check for; with monitor_id it identifies the check. */
  @Column({ type: 'timestamptz', name: 'scheduled_at' }) scheduledAt!: Date;
  @Column({ type: 'integer', name: 'start_lag_ms', default: 0 }) startLagMs!: number;
  @Column({ type: 'boolean' }) ok!: boolean;
  @Column({ type: 'smallint', name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
}
