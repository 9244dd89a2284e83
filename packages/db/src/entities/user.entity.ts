import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const USER_ROLES = ['user', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'varchar', length: 320 }) email!: string;
  @Column({ type: 'varchar', length: 200, nullable: true }) name!: string | null;
  @Column({ type: 'text', name: 'avatar_url', nullable: true }) avatarUrl!: string | null;
  @Column({ type: 'varchar', length: 16, default: 'user' }) role!: UserRole;
  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_login', nullable: true }) lastLogin!: Date | null;
}
