import { createLogger } from '@uptime/logger';
import { testConfig } from '@uptime/testing';
import { createEmailChannel } from '../src/channels/create-email-channel';
import { LogEmailChannel } from '../src/channels/log-email';
import { SendGridEmailChannel } from '../src/channels/sendgrid-email';
import { SmtpEmailChannel } from '../src/channels/smtp-email';

const logger = createLogger({ level: 'silent', service: 'notifier-test' });
const channelFor = (env: Record<string, string>) => createEmailChannel(testConfig(env).mail, logger);

describe('createEmailChannel', () => {
  it('prefers SendGrid when its API key is set, even with SMTP configured', () => {
    expect(channelFor({ SENDGRID_API_KEY: 'SG.key', SMTP_URL: 'smtp://mail.example.test:25' })).toBeInstanceOf(SendGridEmailChannel);
  });

  it('uses SMTP when only SMTP_URL is set', () => {
    expect(channelFor({ SMTP_URL: 'smtp://mail.example.test:25' })).toBeInstanceOf(SmtpEmailChannel);
  });

  it('falls back to the log when no transport is configured', () => {
    expect(channelFor({})).toBeInstanceOf(LogEmailChannel);
  });
});
