import { EmailSendError } from '../src/channels/email-channel';
import { SmtpEmailChannel, withDefaultTimeouts } from '../src/channels/smtp-email';
import { startFakeSmtpServer, type FakeSmtpServer } from './support/fake-smtp-server';

const message = { to: 'ops@example.test', from: 'uptime@example.test', subject: '[DOWN] Shop is down', text: 'Monitor "Shop" is down.' };

describe('SMTP email channel', () => {
  let smtp: FakeSmtpServer;
  beforeEach(async () => {
    smtp = await startFakeSmtpServer();
  });
  afterEach(() => smtp.close());

  it('hands the email to the SMTP server', async () => {
    await new SmtpEmailChannel(smtp.url).send(message);

    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ from: 'uptime@example.test', to: ['ops@example.test'] });
    expect(smtp.mails[0].data).toContain('Subject: [DOWN] Shop is down');
    expect(smtp.mails[0].data).toContain('Monitor "Shop" is down.');
  });

  it('reports a mailbox the server rejects with 5xx as permanent', async () => {
    smtp.replyToRecipient(() => '550 5.1.1 no such mailbox');

    const failure = await new SmtpEmailChannel(smtp.url).send(message).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(EmailSendError);
    expect(failure).toMatchObject({ isPermanent: true, message: expect.stringContaining('(550)') });
    expect(smtp.mails).toHaveLength(0);
  });

  it('reports a 4xx deferral as transient', async () => {
    smtp.replyToRecipient(() => '451 4.3.0 try again later');

    const failure = await new SmtpEmailChannel(smtp.url).send(message).catch((err: unknown) => err);

    expect(failure).toMatchObject({ name: 'EmailSendError', isPermanent: false });
  });

  it('reports an unreachable server as transient', async () => {
    const url = smtp.url;
    await smtp.close();

    await expect(new SmtpEmailChannel(url).send(message)).rejects.toMatchObject({ isPermanent: false });
    smtp = await startFakeSmtpServer(); // for afterEach
  });

  it('adds bounded timeouts unless the URL sets its own', () => {
    const url = new URL(withDefaultTimeouts('smtps://user:p%40ss@mail.example.test:465?socketTimeout=5000'));
    expect(url.searchParams.get('socketTimeout')).toBe('5000');
    expect(url.searchParams.get('connectionTimeout')).toBe('10000');
    expect(url.password).toBe('p%40ss');
  });
});
