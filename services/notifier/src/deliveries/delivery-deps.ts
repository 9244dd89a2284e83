import type { DataSource, SecretKeyring } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import type { Config } from '@uptime/config';
import { allowPublicAddressesOnly, SERVICE_CHANNEL_TYPES, type AddressPolicy } from '@uptime/probe';
import type { EmailChannel } from '../channels/email-channel';
import { DEFAULT_LEASE_MS, type AttemptDeps } from './attempt-delivery';
import { emailSender, slackSender, webhookSender, type ChannelSenders } from './channel-sender';
import { ProviderPauses } from './provider-pauses.repository';
import { serviceSender } from './service-sender';

export interface DeliveryOptions {
  dataSource: DataSource;
  emailChannel: EmailChannel;
  /** The sender address (MAIL_FROM). */
  mailFrom: string;
  logger: Logger;
  metrics?: Pick<
    ServiceMetrics,
    'deliveries' | 'deliveryAttempts' | 'deliveryLatency' | 'possibleDuplicates' | 'providerPausedUntil' | 'providerPauses'
  >;
  /** A claim's lease; default send timeout + 10 s. */
  leaseMs?: number;
  /** The web application's base URL (APP_URL), for links in messages. */
  appUrl: string;
  /** Where Slack, webhook and service channel requests may connect (ALLOW_PRIVATE_TARGETS); public addresses only by default. */
  addressPolicy?: AddressPolicy;
  /** Opens channel secrets (SECRETS_KEY; docs/channels.md); without it a channel with secrets cannot be sent to. */
  keyring?: SecretKeyring;
  /** TELEGRAM_API_URL, PAGERDUTY_EVENTS_URL, PUSHOVER_API_URL. */
  channelServices: Config['channelServices'];
}

/** What the job and the sweeper share to send deliveries: every channel's sender, the pauses, the lease. */
export function createDeliveryDeps(options: DeliveryOptions): AttemptDeps {
  const addressPolicy = options.addressPolicy ?? allowPublicAddressesOnly;
  const senders: ChannelSenders = {
    email: emailSender(options.emailChannel, options.mailFrom),
    slack: slackSender(options.appUrl, addressPolicy, options.keyring),
    webhook: webhookSender(options.dataSource, addressPolicy, options.keyring),
  };
  const service = { appUrl: options.appUrl, addressPolicy, endpoints: options.channelServices, keyring: options.keyring };
  for (const type of SERVICE_CHANNEL_TYPES) senders[type] = serviceSender(type, service);
  return {
    dataSource: options.dataSource,
    senders,
    pauses: new ProviderPauses(options.dataSource, options.logger, options.metrics),
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
  };
}
