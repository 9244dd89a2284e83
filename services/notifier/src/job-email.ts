import { UnrecoverableError } from 'bullmq';
import { isPermanentSendError, type EmailChannel, type EmailMessage } from './channels/email-channel';

/**
 * Sends the one email of a job (an invitation, a subscription's confirmation). A refusal that
 * cannot succeed later (a bad address) fails the job for good; anything else throws as it is, so
 * the queue retries the job (job-catalog.ts).
 */
export async function sendJobEmail(channel: EmailChannel, mail: EmailMessage): Promise<void> {
  try {
    await channel.send(mail);
  } catch (err) {
    if (isPermanentSendError(err)) throw new UnrecoverableError((err as Error).message);
    throw err;
  }
}
