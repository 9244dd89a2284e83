import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A bearer token; only the SHA-256 of the plaintext is kept. */
@Entity({ name: 'api_tokens' })
export class ApiToken {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'user_id' }) userId!: number;
  /** The organization that holds it (docs/organizations.md). */
  @Column({ type: 'integer', name: 'organization_id' }) organizationId!: number;
  /** `read` tokens may only read (docs/organizations.md, "Scoped tokens"). */
  @Column({ type: 'varchar', length: 5, default: 'write' }) scope!: TokenScope;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'char', length: 64, name: 'token_hash' }) tokenHash!: string;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true }) expiresAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'last_used_at', nullable: true }) lastUsedAt!: Date | null;
}
