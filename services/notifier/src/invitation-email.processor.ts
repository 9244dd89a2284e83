import { InvitationEmailJob, parseJob } from '@uptime/queues';
import type { EmailChannel } from './channels/email-channel';
import { sendJobEmail } from './job-email';

/**
 * Sends the email of an organization invitation (docs/organizations.md, "Invitations") through
 * the notifier's mail transport. A refusal that cannot succeed later (a bad address) fails the job
 * for good; anything else is retried by the queue (job-catalog.ts).
 */
export function createInvitationEmailProcessor(deps: { emailChannel: EmailChannel; mailFrom: string }): (job: { data: unknown }) => Promise<void> {
  return async (job) => {
    const invitation = parseJob(InvitationEmailJob, job.data);
    const expires = new Date(invitation.expiresAt).toUTCString();
    await sendJobEmail(deps.emailChannel, {
        to: invitation.to,
        from: deps.mailFrom,
        subject: `You are invited to ${invitation.organizationName}`,
        text: [
          `${invitation.invitedBy} invites you to join the organization "${invitation.organizationName}" as ${invitation.role}.`,
          '',
          `Accept the invitation: ${invitation.url}`,
          '',
          `The link works once, until ${expires}, for the address this email was sent to.`,
        ].join('\n'),
    });
  };
}
