import { IsInt, Min } from 'class-validator';
import type { DeliveryChannel } from '@uptime/db';

/**
 * Payload of `alert-test` (on the status-changes queue, so every notifier handles it): send a
 * test message on every enabled channel of a monitor now. Produced by
 * `POST /monitors/{id}/alerts/test`, which waits for the job's result.
 */
export class AlertTestJob {
  @IsInt() @Min(1) monitorId!: number;
}

/** One test message's fate, in the field names of a notification's `deliveries`. */
export interface AlertTestDelivery {
  channel: DeliveryChannel;
  recipient: string;
  /** `logged`: an email written to the log only, no mail transport being configured. */
  status: 'pending' | 'sent' | 'logged' | 'failed';
  attempts: number;
  last_attempt_at: string | null;
  sent_at: string | null;
  error: string | null;
}

/** The job's progress (as each attempt finishes) and its return value. */
export interface AlertTestResult {
  deliveries: AlertTestDelivery[];
}
