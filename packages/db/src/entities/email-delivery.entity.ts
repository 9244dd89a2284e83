import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const EMAIL_DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type EmailDeliveryStatus = (typeof EMAIL_DELIVERY_STATUSES)[number];

/** One email of one notification to one recipient (unique), claimed before it is sent. */
@Entity({ name: 'email_deliveries' })
export class EmailDelivery {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ type: 'integer', name: 'notification_id' }) notificationId!: number;
  @Column({ type: 'varchar', length: 320 }) recipient!: string;
  @Column({ type: 'varchar', length: 10, default: 'pending' }) status!: EmailDeliveryStatus;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'text', name: 'last_error', nullable: true }) lastError!: string | null;
  @Column({ type: 'timestamptz', name: 'claimed_at', nullable: true }) claimedAt!: Date | null;
  @Column({ type: 'timestamptz', name: 'sent_at', nullable: true }) sentAt!: Date | null;
}
