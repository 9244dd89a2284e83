import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import { allowAnyAddress } from '@uptime/probe';
import { createLogger, type Logger } from '@uptime/logger';
import { openTestDatabase, resetDatabase, resetRedis, startFakeSendGrid, testConfig, testSecretsKeyring, type FakeSendGrid } from '@uptime/testing';
import { SendGridEmailChannel } from '../../src/channels/sendgrid-email';
import type { AttemptDeps } from '../../src/deliveries/attempt-delivery';
import { createDeliveryDeps, type DeliveryOptions } from '../../src/deliveries/delivery-deps';
import type { EmailChannel } from '../../src/channels/email-channel';
import { createStatusChangedProcessor, type StatusChangedProcessor, type StatusChangedProcessorDeps } from '../../src/status-changed.processor';

type ProcessorOptions = Partial<Pick<StatusChangedProcessorDeps, 'inFlightWaitMs' | 'metrics' | 'leaseMs' | 'addressPolicy' | 'logger' | 'keyring' | 'channelServices'>>;

export interface Testbed {
  ds: DataSource;
  /** Speaks SendGrid's API; `mails` is emptied before each test. */
  sendgrid: FakeSendGrid;
  config: Config;
  logger: Logger;
  /** A processor sending through `channel`, by default SendGrid at the fake. */
  processor(channel?: EmailChannel, options?: ProcessorOptions): StatusChangedProcessor;
  /** What the job and the sweeper share, as one notifier builds it, sending through the fake SendGrid. */
  deliveryDeps(options?: Partial<Pick<DeliveryOptions, 'leaseMs' | 'metrics' | 'keyring' | 'channelServices'>>): AttemptDeps;
  /** A SendGrid channel at another (e.g. failing) fake. */
  sendGridAt(fake: FakeSendGrid, options?: { timeoutMs?: number }): EmailChannel;
}

/** Registers the hooks of a notifier test file: real Postgres and Redis, a fake SendGrid. */
export function useTestbed(): Testbed {
  const bed = {} as Testbed;

  beforeAll(async () => {
    bed.ds = await openTestDatabase();
    await resetDatabase(bed.ds);
    await resetRedis();
    bed.sendgrid = await startFakeSendGrid();
    bed.config = testConfig({ SENDGRID_API_KEY: bed.sendgrid.apiKey, SENDGRID_API_URL: bed.sendgrid.url });
    bed.logger = createLogger({ level: bed.config.logLevel, service: 'notifier-test' });
    bed.sendGridAt = (fake, options = {}) => new SendGridEmailChannel({ apiKey: fake.apiKey, apiUrl: fake.url, ...options });
    bed.deliveryDeps = (options = {}) =>
      createDeliveryDeps({
        dataSource: bed.ds,
        emailChannel: bed.sendGridAt(bed.sendgrid),
        mailFrom: bed.config.mail.from,
        appUrl: bed.config.http.appUrl,
        addressPolicy: allowAnyAddress,
        channelServices: bed.config.channelServices,
        logger: bed.logger,
        // Opens what the builders sealed (the monitor's own Slack URL and webhook key).
        keyring: testSecretsKeyring,
        ...options,
      });
    bed.processor = (channel = bed.sendGridAt(bed.sendgrid), options = {}) =>
      createStatusChangedProcessor({
        dataSource: bed.ds,
        emailChannel: channel,
        mailFrom: bed.config.mail.from,
        appUrl: bed.config.http.appUrl,
        addressPolicy: allowAnyAddress,
        channelServices: bed.config.channelServices,
        logger: bed.logger,
        keyring: testSecretsKeyring,
        ...options,
      });
  });

  beforeEach(async () => {
    await resetDatabase(bed.ds);
    bed.sendgrid.mails.length = 0;
    bed.sendgrid.server.requests.length = 0;
    bed.sendgrid.setMode({ kind: 'accept' });
  });

  afterAll(async () => {
    await bed.sendgrid?.close();
    await bed.ds?.destroy();
  });

  return bed;
}
