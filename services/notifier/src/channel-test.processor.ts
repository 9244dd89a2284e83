import { randomUUID } from 'node:crypto';
import { allowPublicAddressesOnly, isServiceChannelType, type AddressPolicy } from '@uptime/probe';
import { ChannelTestJob, parseJob, type AlertTestDelivery, type AlertTestResult } from '@uptime/queues';
import { runTestSends, type AlertTestQueuedJob, type TestSend } from './alert-test.processor';
import { composeChannelTestEmail, composeChannelTestSlack } from './alert-test-messages';
import { channelRecipient, channelRecipients, configString, openChannelConfig } from './channel-deliveries';
import { loadTestChannel, type TestChannel } from './channel-test.repository';
import { channelTestNoticeOf } from './channels/channel-notice';
import { providerOfServiceChannel, sendToServiceChannel } from './channels/service-channels';
import { postToSlack } from './channels/slack';
import { postWebhook } from './channels/webhook';
import type { DeliveryOptions } from './deliveries/delivery-deps';
import { ProviderPauses } from './deliveries/provider-pauses.repository';
import { serviceChannelOf } from './deliveries/service-sender';

/** A failure before anything was sent (the channel's secrets do not open, a field is missing): shown as the one delivery's error. */
function refused(channel: TestChannel, err: unknown): AlertTestDelivery {
  return { channel: channel.type, recipient: channelRecipient(channel.id), status: 'failed', attempts: 0, last_attempt_at: null, sent_at: null, error: (err as Error).message.slice(0, 2000) };
}

/** The test sends of one channel: an email per address, else one message, whose recipient is `channel:<id>`. */
function testSendsOf(channel: TestChannel, deps: DeliveryOptions, policy: AddressPolicy): TestSend[] {
  const config = openChannelConfig(channel, deps.keyring);
  const recipient = channelRecipient(channel.id);
  switch (channel.type) {
    case 'email':
      return channelRecipients(channel).map((to) => ({
        channel: 'email',
        recipient: to,
        provider: deps.emailChannel.provider ?? null,
        send: () => deps.emailChannel.send(composeChannelTestEmail(channel, deps.mailFrom, to)),
      }));
    case 'slack': {
      const url = configString(config, 'webhook_url');
      return [{ channel: 'slack', recipient, provider: `slack:${recipient}`, send: () => postToSlack(url, composeChannelTestSlack(channel), policy) }];
    }
    case 'webhook': {
      const [url, secret] = [configString(config, 'url'), configString(config, 'secret')];
      const now = new Date().toISOString();
      const notification = { id: null, type: 'test', message: `Test notification through the channel "${channel.name}"`, channel_id: channel.id, created_at: now };
      const payload = { event: 'test' as const, notification, monitor: null };
      return [{ channel: 'webhook', recipient, provider: `webhook:${recipient}`, send: () => postWebhook({ url, secret, deliveryId: randomUUID(), payload, addressPolicy: policy }) }];
    }
    default: {
      if (!isServiceChannelType(channel.type)) return [];
      const service = serviceChannelOf(channel.type, config);
      const notice = channelTestNoticeOf(channel, deps.appUrl, `channel-${channel.id}-${randomUUID()}`, new Date());
      const serviceDeps = { addressPolicy: policy, endpoints: deps.channelServices };
      return [
        { channel: channel.type, recipient, provider: providerOfServiceChannel(service, deps.channelServices), send: () => sendToServiceChannel(service, notice, serviceDeps) },
      ];
    }
  }
}

/**
 * Handles `channel-test`: a test message through one channel now, each send attempted once, as
 * `alert-test` does for a monitor's channels (alert-test.processor.ts): progress after each
 * attempt, so `POST /channels/{id}/test` answers what finished within its 15 s.
 */
export function createChannelTestProcessor(deps: DeliveryOptions): (job: AlertTestQueuedJob) => Promise<AlertTestResult> {
  const policy = deps.addressPolicy ?? allowPublicAddressesOnly;
  const pauses = new ProviderPauses(deps.dataSource, deps.logger, deps.metrics);
  return async (job) => {
    const { channelId } = parseJob(ChannelTestJob, job.data);
    const channel = await loadTestChannel(deps.dataSource.manager, channelId);
    if (!channel) return { deliveries: [] };
    let sends: TestSend[];
    try {
      sends = testSendsOf(channel, deps, policy);
    } catch (err) {
      return { deliveries: [refused(channel, err)] };
    }
    const deliveries = await runTestSends(job, sends, deps, pauses);
    deps.logger.info({ channel_id: channelId, deliveries: deliveries.map((d) => [d.channel, d.status]) }, 'channel test sent');
    return { deliveries };
  };
}
