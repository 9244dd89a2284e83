import type { DataSource, DeliveryChannel } from '@uptime/db';
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
  'channel' | 'phase' | 'recipient' | 'type' | 'kind' | 'followupDueAt' | 'deliveryUid' | 'notificationId'
>;

/** One channel's way of sending a delivery; rejects with a `SendError` (channels/send-error.ts). */
export interface ChannelSender {
  /** Whose back-off this delivery is subject to; null when the receiver never asks to wait. */
  providerOf(target: Pick<DeliveryTarget, 'recipient'>): string | null;
  send(target: DeliveryTarget, alert: AlertContext): Promise<void>;
}

export type ChannelSenders = Partial<Record<DeliveryChannel, ChannelSender>>;

/** Email: the message of the alert's kind (alert-kinds/) to one address, through the configured transport. */
export function emailSender(channel: EmailChannel, mailFrom: string): ChannelSender {
  return {
    providerOf: () => channel.provider ?? null,
    send: (target, alert) => channel.send(kindOf(alert).email(target, alert, mailFrom, target.recipient)),
  };
}

/** Slack: the message of the alert's kind to the incoming webhook recorded on the delivery. */
export function slackSender(appUrl: string, addressPolicy: AddressPolicy): ChannelSender {
  return {
    providerOf: (target) => slackProvider(target.recipient),
    send: (target, alert) => postToSlack(target.recipient, kindOf(alert).slack(target, alert, appUrl), addressPolicy),
  };
}

/** Webhook: the signed event to the URL recorded on the delivery, signed with the monitor's key now. */
export function webhookSender(db: DataSource, addressPolicy: AddressPolicy): ChannelSender {
  return {
    providerOf: (target) => webhookProvider(target.recipient),
    send: async (target, alert) => {
      // Disabled (or its key removed) since the notification: nothing can be signed.
      if (!alert.webhook) throw new SendError('the webhook was disabled before this delivery could be sent', 'permanent');
      const payload = await composeAlertWebhook(db.manager, target, alert);
      await postWebhook({ url: target.recipient, secret: alert.webhook.secret, deliveryId: target.deliveryUid, payload, addressPolicy });
    },
  };
}
