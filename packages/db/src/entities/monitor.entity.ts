import { Column, CreateDateColumn, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn, RelationId, UpdateDateColumn } from 'typeorm';
import type { DnsRecordType, MonitorType } from '@uptime/probe';
import { Agent } from './agent.entity';

export const MONITOR_STATUSES = ['pending', 'online', 'offline', 'warning', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

@Entity({ name: 'monitors' })
export class Monitor {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'owner_id' }) ownerId!: number;
  /** The organization that holds it (docs/organizations.md). */
  @Column({ type: 'integer', name: 'organization_id' }) organizationId!: number;
  @Column({ type: 'varchar', length: 200 }) name!: string;
  @Column({ type: 'text' }) url!: string;
  /** How it is checked: one of MONITOR_TYPES (packages/probe/src/check-config.ts). */
  @Column({ type: 'varchar', length: 10, default: 'http' }) type!: MonitorType;
  @Column({ type: 'varchar', length: 10, default: 'GET' }) method!: string;
  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" }) headers!: Record<string, string>;
  @Column({ type: 'text', nullable: true }) body!: string | null;
  @Column({ type: 'integer', array: true, name: 'expected_status', default: () => "'{}'" }) expectedStatus!: number[];
  @Column({ type: 'integer' }) timeout!: number;
  @Column({ type: 'integer', name: 'check_interval' }) checkInterval!: number;
  @Column({ type: 'integer', name: 'retry_count', default: 0 }) retryCount!: number;
  @Column({ type: 'boolean', name: 'follow_redirects', default: true }) followRedirects!: boolean;
  @Column({ type: 'boolean', name: 'verify_ssl', default: true }) verifySsl!: boolean;
  @Column({ type: 'text', name: 'expected_content', nullable: true }) expectedContent!: string | null;
  @Column({ type: 'text', name: 'excluded_content', nullable: true }) excludedContent!: string | null;
  @Column({ type: 'text', name: 'json_path', nullable: true }) jsonPath!: string | null;
  /** What a tcp check sends once connected; null for other types. */
  @Column({ type: 'text', name: 'tcp_send', nullable: true }) tcpSend!: string | null;
  /** A dns check's question and resolver (migration 1796518000000); their defaults for other types. */
  @Column({ type: 'varchar', length: 10, name: 'dns_record_type', default: 'A' }) dnsRecordType!: DnsRecordType;
  @Column({ type: 'text', name: 'dns_resolver', nullable: true }) dnsResolver!: string | null;
  @Column({ type: 'varchar', length: 3, name: 'dns_protocol', default: 'udp' }) dnsProtocol!: 'udp' | 'tcp';
  @Column({ type: 'text', name: 'expected_dns_values', array: true, default: () => "'{}'" }) expectedDnsValues!: string[];
  /** Echo requests a ping check sends (stored for every row; shown as null for other types). */
  @Column({ type: 'smallint', name: 'ping_count', default: 3 }) pingCount!: number;
  @Column({ type: 'text', name: 'expected_json_value', nullable: true }) expectedJsonValue!: string | null;
  /** A heartbeat's schedule (docs/heartbeats.md): seconds between pings, or a cron in a zone; null for other types. */
  @Column({ type: 'integer', name: 'heartbeat_period', nullable: true }) heartbeatPeriod!: number | null;
  @Column({ type: 'varchar', length: 120, name: 'heartbeat_cron', nullable: true }) heartbeatCron!: string | null;
  @Column({ type: 'varchar', length: 64, name: 'heartbeat_timezone', nullable: true }) heartbeatTimezone!: string | null;
  /** Seconds after the due time before a heartbeat is offline. */
  @Column({ type: 'integer', name: 'heartbeat_grace', nullable: true }) heartbeatGrace!: number | null;
  /** The secret of its ping URL (`${PUBLIC_URL}/ping/{token}`); unique. */
  @Column({ type: 'varchar', length: 64, name: 'heartbeat_token', nullable: true }) heartbeatToken!: string | null;
  /** When the next ping is due; kept by the check-worker. */
  @Column({ type: 'timestamptz', name: 'heartbeat_due_at', nullable: true }) heartbeatDueAt!: Date | null;
  /** When a start was reported that no success has followed yet; kept by the check-worker. */
  @Column({ type: 'timestamptz', name: 'heartbeat_started_at', nullable: true }) heartbeatStartedAt!: Date | null;
  /** When a resumed heartbeat began waiting for its first ping; null: since its creation. */
  @Column({ type: 'timestamptz', name: 'heartbeat_waiting_since', nullable: true }) heartbeatWaitingSince!: Date | null;
  /** The time of the last result its pings or deadline gave; the next is at least 1 ms later. Kept by the check-worker. */
  @Column({ type: 'timestamptz', name: 'heartbeat_last_verdict_at', nullable: true }) heartbeatLastVerdictAt!: Date | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) locations!: string[];
  @Column({ type: 'text', array: true, default: () => "'{}'" }) tags!: string[];
  /** Its stable name in a configuration file, unique within the organization; null when made in the UI (docs/config-as-code.md). */
  @Column({ type: 'varchar', length: 100, nullable: true }) key!: string | null;
  /** 'config' when `uptime apply` made or adopted it: only those are pruned (docs/config-as-code.md). */
  @Column({ type: 'varchar', length: 10, name: 'managed_by', nullable: true }) managedBy!: 'config' | null;

  @Column({ type: 'varchar', length: 10, default: 'pending' }) status!: MonitorStatus;
  @Column({ type: 'integer', name: 'consecutive_failures', default: 0 }) consecutiveFailures!: number;
  @Column({ type: 'integer', name: 'response_time', nullable: true }) responseTime!: number | null;
  @Column({ type: 'timestamptz', name: 'last_check', nullable: true }) lastCheck!: Date | null;
  @Column({ type: 'timestamptz', name: 'last_success', nullable: true }) lastSuccess!: Date | null;
  @Column({ type: 'timestamptz', name: 'last_failure', nullable: true }) lastFailure!: Date | null;
  @Column({ type: 'timestamptz', name: 'paused_at', nullable: true }) pausedAt!: Date | null;
  @Column({ type: 'text', name: 'pause_reason', nullable: true }) pauseReason!: string | null;
  /** The alert (alerts) of kind downtime still open for this monitor, if any. */
  @Column({ type: 'integer', name: 'open_incident_id', nullable: true }) openIncidentId!: number | null;
  /** Whether the latest recorded check fell in a maintenance window (docs/alert-rules.md). */
  @Column({ type: 'boolean', name: 'in_maintenance', default: false }) inMaintenance!: boolean;
  /** Bumped on every change of what a check does; the job template carries it. */
  @Column({ type: 'integer', name: 'config_version', default: 1 }) configVersion!: number;

  @Column({ type: 'boolean', name: 'alert_on_recovery', default: true }) alertOnRecovery!: boolean;
  @Column({ type: 'integer', name: 'alert_threshold', default: 1 }) alertThreshold!: number;
  /** Emails when the monitor becomes slow and when it stops (docs/alert-rules.md). */
  @Column({ type: 'boolean', name: 'alert_on_slow', default: false }) alertOnSlow!: boolean;
  /** A certificate notification when fewer days than this remain; 0: off (docs/alert-rules.md). */
  @Column({ type: 'smallint', name: 'certificate_expiry_days', default: 14 }) certificateExpiryDays!: number;
  /** The alerts (alerts) of kinds slow and certificate still open for this monitor; kept by the check-worker. */
  @Column({ type: 'integer', name: 'open_slow_episode_id', nullable: true }) openSlowEpisodeId!: number | null;
  @Column({ type: 'integer', name: 'open_certificate_episode_id', nullable: true }) openCertificateEpisodeId!: number | null;
  /** A success slower than this many ms reads warning (slow); null: off (docs/alert-rules.md). */
  @Column({ type: 'integer', name: 'response_time_threshold', nullable: true }) responseTimeThreshold!: number | null;
  /** Successes in a row needed to leave offline (docs/alert-rules.md). */
  @Column({ type: 'integer', name: 'recovery_threshold', default: 1 }) recoveryThreshold!: number;
  /** Successes in a row counted while offline, towards recovery_threshold. */
  @Column({ type: 'integer', name: 'consecutive_successes', default: 0 }) consecutiveSuccesses!: number;
  /** Why the monitor reads warning: failing or slow; kept by the check-worker. */
  /** notAfter of the https target's leaf certificate as last received; null for http or none yet. */
  @Column({ type: 'timestamptz', name: 'certificate_expires_at', nullable: true }) certificateExpiresAt!: Date | null;
  /** Monitors of the same owner this one depends on: its downtime is suppressed while one is offline. */
  @Column({ type: 'integer', array: true, name: 'depends_on', default: () => "'{}'" }) dependsOn!: number[];
  @Column({ type: 'varchar', length: 16, name: 'status_reason', nullable: true }) statusReason!: 'failing' | 'slow' | null;
  /** Minutes between reminders of an unacknowledged downtime; null: off (docs/alert-rules.md). */
  @Column({ type: 'integer', name: 'reminder_interval_minutes', nullable: true }) reminderIntervalMinutes!: number | null;
  /** Who gets a downtime's email once it is unacknowledged after escalation_after_minutes. */
  @Column({ type: 'text', array: true, name: 'escalation_recipients', default: () => "'{}'" }) escalationRecipients!: string[];
  @Column({ type: 'integer', name: 'escalation_after_minutes', nullable: true }) escalationAfterMinutes!: number | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;

  /** Agents assigned (monitor_agents); written only through the monitor-agents endpoints. */
  @ManyToMany(() => Agent)
  @JoinTable({ name: 'monitor_agents', joinColumn: { name: 'monitor_id' }, inverseJoinColumn: { name: 'agent_id' } })
  agents?: Agent[];
  /**
   * Ids of the assigned agents, loaded with every monitor, so each schedule built from a loaded
   * monitor (update, reconciler, resume) keeps carrying them in its job template. Undefined on a
   * monitor not loaded from the database (a new one has none).
   */
  @RelationId((m: Monitor) => m.agents) agentIds?: number[];
}
