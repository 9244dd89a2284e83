import type { DataSource, DeliveryChannel, SecretKeyring } from '@uptime/db';
import { channelConfigOf, channelIdOf, configString } from '../channel-deliveries';
import type { AddressPolicy } from '@uptime/probe';
import type { EmailChannel } from '../channels/email-channel';
import { SendError } from '../channels/send-error';
import { postToSlack, slackProvider } from '../channels/slack';
import { postWebhook, webhookProvider } from '../channels/webhook';
import type { AlertContext } from '../alert';
import { kindOf } from '../alert-kinds';
import { composeAlertWebhook } from '../alert-webhook';
import type { ClaimedDelivery } from './delivery.repository';

/** What a channel needs to send one delivery. */
export type DeliveryTarget = Pick<
  ClaimedDelivery,
  'channel' | 'channelId' | 'phase' | 'recipient' | 'type' | 'kind' | 'followupDueAt' | 'deliveryUid' | 'notificationId' | 'changedAt'
>;

/** One channel's way of sending a delivery; rejects with a `SendError` (channels/send-error.ts). */
export interface ChannelSender {
  /** Whose back-off this delivery is subject to; null when the receiver never asks to wait. `alert`: the delivery's, when known. */
  providerOf(target: Pick<DeliveryTarget, 'recipient' | 'channelId'>, alert?: AlertContext): string | null;
  /** Resolves `logged` when the message only went to the log (an email with no mail transport). */
  send(target: DeliveryTarget, alert: AlertContext): Promise<void | 'logged'>;
}

export type ChannelSenders = Partial<Record<DeliveryChannel, ChannelSender>>;

/** Email: the message of the alert's kind (alert-kinds/) to one address, through the configured transport. */
export function emailSender(channel: EmailChannel, mailFrom: string): ChannelSender {
  return {
    providerOf: () => channel.provider ?? null,
    send: async (target, alert) => {
      await channel.send(kindOf(alert).email(target, alert, mailFrom, target.recipient));
      return channel.logsOnly ? 'logged' : undefined;
    },
  };
}

/**
 * Slack: the message of the alert's kind to the incoming webhook recorded on the delivery, or for
 * a delivery through a channel, to the channel's (opened only now).
 */
export function slackSender(appUrl: string, addressPolicy: AddressPolicy, keyring?: SecretKeyring): ChannelSender {
  return {
    // A channel's URL stays sealed: its back-off is the channel's own.
    providerOf: (target) => (channelIdOf(target) === null ? slackProvider(target.recipient) : `slack:${target.recipient}`),
    send: (target, alert) => {
      const channelId = channelIdOf(target);
      const url = channelId === null ? target.recipient : configString(channelConfigOf(alert, channelId, keyring), 'webhook_url');
      return postToSlack(url, kindOf(alert).slack(target, alert, appUrl), addressPolicy);
    },
  };
}

/** Webhook: the signed event to the URL recorded on the delivery, signed with the monitor's key now. */
export function webhookSender(db: DataSource, addressPolicy: AddressPolicy, keyring?: SecretKeyring): ChannelSender {
  return {
    providerOf: (target) => (channelIdOf(target) === null ? webhookProvider(target.recipient) : `webhook:${target.recipient}`),
    send: async (target, alert) => {
      const channelId = channelIdOf(target);
      if (channelId !== null) {
        // Through a channel: its URL and its own signing key.
        const config = channelConfigOf(alert, channelId, keyring);
        const payload = await composeAlertWebhook(db.manager, target, alert);
        await postWebhook({ url: configString(config, 'url'), secret: configString(config, 'secret'), deliveryId: target.deliveryUid, payload, addressPolicy });
        return;
      }
      // Disabled (or its key removed) since the notification: nothing can be signed.
      if (!alert.webhook) throw new SendError('the webhook was disabled before this delivery could be sent', 'permanent');
      const payload = await composeAlertWebhook(db.manager, target, alert);
      await postWebhook({ url: target.recipient, secret: alert.webhook.secret, deliveryId: target.deliveryUid, payload, addressPolicy });
    },
  };
}
