import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One location's result of a check that ran at several places (the local one and agents). */
@Entity({ name: 'check_location_results' })
export class CheckLocationResult {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column({ type: 'bigint', name: 'check_result_id' }) checkResultId!: string;
  @Column({ type: 'varchar', length: 64 }) location!: string;
  /** The agent that ran it; null for the worker's own (local) location. */
  @Column({ type: 'integer', name: 'agent_id', nullable: true }) agentId!: number | null;
  /** true = up, false = down, null = the agent did not answer (an agent error, not a vote). */
  @Column({ type: 'boolean', nullable: true }) ok!: boolean | null;
  @Column({ type: 'smallint', name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'timestamptz', name: 'checked_at' }) checkedAt!: Date;
  /** Round trip of the call to the agent, ms; null for the local location or no answer. */
  @Column({ type: 'integer', name: 'latency_ms', nullable: true }) latencyMs!: number | null;
}
