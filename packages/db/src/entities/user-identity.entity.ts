import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The OAuth sign-in providers (the `{provider}` path segment of docs/security.md). */
export const OAUTH_PROVIDERS = ['github', 'google'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** One provider account linked to a user; (provider, provider_user_id) is unique. */
@Entity({ name: 'user_identities' })
export class UserIdentity {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'user_id' }) userId!: number;
  @Column({ type: 'varchar', length: 32 }) provider!: OAuthProvider;
  @Column({ type: 'varchar', length: 255, name: 'provider_user_id' }) providerUserId!: string;
  /** The address the provider reported at the last sign-in. */
  @Column({ type: 'varchar', length: 320, nullable: true }) email!: string | null;
  @Column({ type: 'boolean', name: 'email_verified', default: false }) emailVerified!: boolean;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
}
