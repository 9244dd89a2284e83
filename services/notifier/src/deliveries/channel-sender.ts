import type { DataSource, DeliveryChannel, SecretKeyring } from '@uptime/db';
import { channelConfigOf, channelIdOf, configString } from '../channel-deliveries';
import type { AddressPolicy } from '@uptime/probe';
import type { EmailChannel } from '../channels/email-channel';
import { SendError } from '../channels/send-error';
import { postToSlack } from '../channels/slack';
import { postWebhook } from '../channels/webhook';
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
 * The channel a Slack or webhook delivery goes through. Every one names its channel: the monitor's
 * own Slack and webhook are channels too, and the start-up carry-over rewrote the deliveries
 * recorded before them (packages/db/src/own-channels/carry-over.ts). One that still names none
 * belonged to settings cleared before the carry-over: there is nowhere left to send it.
 */
function channelOfDelivery(target: Pick<DeliveryTarget, 'channelId' | 'recipient'>): number {
  const channelId = channelIdOf(target);
  if (channelId === null) throw new SendError('this delivery names no channel: its settings were removed before they were carried over', 'permanent');
  return channelId;
}

/** Slack: the message of the alert's kind to the channel's incoming webhook (opened only now). */
export function slackSender(appUrl: string, addressPolicy: AddressPolicy, keyring?: SecretKeyring): ChannelSender {
  return {
    // A channel's URL stays sealed: its back-off is the channel's own.
    providerOf: (target) => `slack:${target.recipient}`,
    send: (target, alert) => {
      const url = configString(channelConfigOf(alert, channelOfDelivery(target), keyring), 'webhook_url');
      return postToSlack(url, kindOf(alert).slack(target, alert, appUrl), addressPolicy);
    },
  };
}

/** Webhook: the signed event to the channel's URL, signed with the channel's own key (docs/webhooks.md). */
export function webhookSender(db: DataSource, addressPolicy: AddressPolicy, keyring?: SecretKeyring): ChannelSender {
  return {
    providerOf: (target) => `webhook:${target.recipient}`,
    send: async (target, alert) => {
      const config = channelConfigOf(alert, channelOfDelivery(target), keyring);
      const payload = await composeAlertWebhook(db.manager, target, alert);
      await postWebhook({ url: configString(config, 'url'), secret: configString(config, 'secret'), deliveryId: target.deliveryUid, payload, addressPolicy });
    },
  };
}
