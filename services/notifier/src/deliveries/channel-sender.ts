import type { DataSource, DeliveryChannel } from '@uptime/db';
import type { AddressPolicy } from '@uptime/probe';
import type { EmailChannel } from '../channels/email-channel';
import { SendError } from '../channels/send-error';
import { postToSlack, slackProvider } from '../channels/slack';
import { postWebhook, webhookProvider } from '../channels/webhook';
import { isEpisodeContext, type AlertContext } from '../episode.repository';
import { composeEpisodeEmail, composeEpisodeSlack } from '../episode-messages';
import { composeFollowupEmail, composeIncidentEmail } from '../incident-email';
import { composeIncidentSlack } from '../incident-slack';
import { composeIncidentWebhook } from '../incident-webhook';
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
  send(target: DeliveryTarget, ctx: AlertContext): Promise<void>;
}

export type ChannelSenders = Partial<Record<DeliveryChannel, ChannelSender>>;

/**
 * Email: the incident's message to one address, through the configured transport; a reminder or
 * escalation (email only, docs/alert-rules.md) says how long the downtime has lasted by then.
 */
export function emailSender(channel: EmailChannel, mailFrom: string): ChannelSender {
  return {
    providerOf: () => channel.provider ?? null,
    send: (target, ctx) =>
      channel.send(
        isEpisodeContext(ctx)
          ? composeEpisodeEmail(target.phase, ctx, mailFrom, target.recipient)
          : target.kind === 'notice'
            ? composeIncidentEmail(target.type, ctx, mailFrom, target.recipient)
            : composeFollowupEmail(target.kind, ctx, target.followupDueAt ?? new Date(), mailFrom, target.recipient),
      ),
  };
}

/** Slack: the incident's message to the incoming webhook recorded on the delivery. */
export function slackSender(appUrl: string, addressPolicy: AddressPolicy): ChannelSender {
  return {
    providerOf: (target) => slackProvider(target.recipient),
    send: (target, ctx) =>
      postToSlack(target.recipient, isEpisodeContext(ctx) ? composeEpisodeSlack(target.phase, ctx, appUrl) : composeIncidentSlack(target.type, ctx, appUrl), addressPolicy),
  };
}

/** Webhook: the signed event to the URL recorded on the delivery, signed with the monitor's key now. */
export function webhookSender(db: DataSource, addressPolicy: AddressPolicy): ChannelSender {
  return {
    providerOf: (target) => webhookProvider(target.recipient),
    send: async (target, ctx) => {
      // Disabled (or its key removed) since the notification: nothing can be signed.
      if (!ctx.webhook) throw new SendError('the webhook was disabled before this delivery could be sent', 'permanent');
      const payload = await composeIncidentWebhook(db.manager, target, ctx);
      await postWebhook({ url: target.recipient, secret: ctx.webhook.secret, deliveryId: target.deliveryUid, payload, addressPolicy });
    },
  };
}
