import { parseJob, SubscriptionConfirmationJob } from '@uptime/queues';
import type { EmailChannel } from '../channels/email-channel';
import { sendJobEmail } from '../job-email';
import { subscriberFooter, unsubscribeHeaders } from './page-event-email';

/**
 * Sends the email that starts a status page subscription (docs/status-pages.md, "Subscribers"):
 * the single-use confirmation link, valid 24 hours. Until it is used nothing else is sent.
 */
export function createSubscriptionConfirmationProcessor(deps: {
  emailChannel: EmailChannel;
  mailFrom: string;
}): (job: { data: unknown }) => Promise<void> {
  return async (job) => {
    const request = parseJob(SubscriptionConfirmationJob, job.data);
    await sendJobEmail(deps.emailChannel, {
      to: request.to,
      from: deps.mailFrom,
      subject: `Confirm your subscription to ${request.pageTitle} status`,
      text: [
        `Someone, hopefully you, asked for emails about incidents on the ${request.pageTitle} status page.`,
        '',
        `Confirm the subscription: ${request.confirmUrl}`,
        '',
        `The link works once, until ${new Date(request.expiresAt).toUTCString()}. If you did not ask, ignore this email: nothing more will be sent.`,
        '',
        ...subscriberFooter(request.pageTitle, request.unsubscribeUrl),
      ].join('\n'),
      headers: unsubscribeHeaders(request.unsubscribeUrl),
    });
  };
}
