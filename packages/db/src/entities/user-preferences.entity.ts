import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/** A user's preferences (docs/dashboard.md); the defaults of new monitors among them. One row per user, absent until first saved. */
@Entity({ name: 'user_preferences' })
export class UserPreferences {
  @PrimaryColumn({ type: 'integer', name: 'user_id' }) userId!: number;
  @Column({ type: 'varchar', length: 64, default: 'UTC' }) timezone!: string;
  @Column({ type: 'boolean', name: 'email_notifications', default: true }) emailNotifications!: boolean;
  @Column({ type: 'integer', name: 'default_check_interval', default: 300 }) defaultCheckInterval!: number;
  @Column({ type: 'integer', name: 'default_timeout', default: 30 }) defaultTimeout!: number;
  @Column({ type: 'text', array: true, name: 'default_locations', default: () => "'{}'" }) defaultLocations!: string[];
  @Column({ type: 'varchar', length: 10, default: 'system' }) theme!: Theme;
  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' }) updatedAt!: Date;
}
