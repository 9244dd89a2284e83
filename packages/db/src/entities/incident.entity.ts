import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A downtime, from the transition to offline until the next successful check, as the view
 * `incidents` shows the alerts (alert.entity.ts) of kind `downtime`, by the ids the API shows.
 */
@Entity({ name: 'incidents' })
export class Incident {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'monitor_id' }) monitorId!: number;
  @Column({ type: 'timestamptz', name: 'started_at' }) startedAt!: Date;
  @Column({ type: 'timestamptz', name: 'resolved_at', nullable: true }) resolvedAt!: Date | null;
  @Column({ type: 'integer', nullable: true }) duration!: number | null;
  @Column({ type: 'integer', name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
}
