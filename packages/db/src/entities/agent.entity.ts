import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const AGENT_STATUSES = ['active', 'inactive', 'maintenance', 'unreachable'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Statuses an owner may set; `unreachable` is set by the check-workers (and validate). */
export const SETTABLE_AGENT_STATUSES = ['active', 'inactive', 'maintenance'] as const satisfies readonly AgentStatus[];

/** A probe at another place, reached by the check-workers over HTTP (docs/agent-protocol.md). */
@Entity({ name: 'agents' })
export class Agent {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'owner_id' }) ownerId!: number;
  /** The organization that holds it (docs/organizations.md). */
  @Column({ type: 'integer', name: 'organization_id' }) organizationId!: number;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'varchar', length: 64 }) location!: string;
  /** Base URL; the protocol paths (/v1/check, /v1/health) are appended. */
  @Column({ type: 'text' }) url!: string;
  /** HMAC key shared with the agent; shown only to its owner or an admin. */
  @Column({ type: 'varchar', length: 128 }) secret!: string;
  @Column({ type: 'varchar', length: 16, default: 'active' }) status!: AgentStatus;
  @Column({ type: 'boolean', name: 'is_public', default: false }) isPublic!: boolean;
  @Column({ type: 'varchar', length: 64, nullable: true }) version!: string | null;
  @Column({ type: 'timestamptz', name: 'last_seen_at', nullable: true }) lastSeenAt!: Date | null;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}
