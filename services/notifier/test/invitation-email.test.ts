import { startFakeSendGrid, type FakeSendGrid } from '@uptime/testing';
import { EmailSendError, type EmailChannel, type EmailMessage } from '../src/channels/email-channel';
import { SendGridEmailChannel } from '../src/channels/sendgrid-email';
import { createInvitationEmailProcessor } from '../src/invitation-email.processor';

const job = {
  data: {
    to: 'new.member@example.test',
    organizationName: 'Acme Ops',
    role: 'admin',
    invitedBy: 'owner@example.test',
    url: 'https://uptime.example.test/invitations/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde',
    expiresAt: '2026-12-12T21:00:00.000Z',
  },
};

describe('invitation-email jobs', () => {
  let fake: FakeSendGrid;
  beforeEach(async () => {
    fake = await startFakeSendGrid();
  });
  afterEach(() => fake.close());

  it('send the link to the invited address through the mail transport, from MAIL_FROM', async () => {
    const process = createInvitationEmailProcessor({ emailChannel: new SendGridEmailChannel({ apiKey: fake.apiKey, apiUrl: fake.url }), mailFrom: 'uptime@example.test' });

    await process(job);

    expect(fake.mails).toHaveLength(1);
    expect(fake.mails[0]).toMatchObject({ to: 'new.member@example.test', from: 'uptime@example.test', subject: 'You are invited to Acme Ops' });
    expect(fake.mails[0]!.text).toContain(job.data.url);
    expect(fake.mails[0]!.text).toContain('as admin');
  });

  it('fail for good on a permanent refusal and for a retry on a transient one', async () => {
    const failing = (permanent: boolean): EmailChannel => ({
      send: (_mail: EmailMessage) => Promise.reject(new EmailSendError('refused', permanent)),
    });
    await expect(createInvitationEmailProcessor({ emailChannel: failing(true), mailFrom: 'u@example.test' })(job)).rejects.toMatchObject({ name: 'UnrecoverableError' });
    await expect(createInvitationEmailProcessor({ emailChannel: failing(false), mailFrom: 'u@example.test' })(job)).rejects.toMatchObject({ name: 'EmailSendError' });
  });

  it('refuse a malformed job without sending anything', async () => {
    const process = createInvitationEmailProcessor({ emailChannel: new SendGridEmailChannel({ apiKey: fake.apiKey, apiUrl: fake.url }), mailFrom: 'uptime@example.test' });
    await expect(process({ data: { ...job.data, to: 'not an address' } })).rejects.toThrow();
    expect(fake.mails).toHaveLength(0);
  });
});
