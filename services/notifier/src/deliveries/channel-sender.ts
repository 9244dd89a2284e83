import type { DeliveryChannel } from '@uptime/db';
import type { EmailChannel } from '../channels/email-channel';
import { composeIncidentEmail } from '../incident-email';
import type { IncidentContext } from '../incident-context';
import type { ClaimedDelivery } from './delivery.repository';

/** What a channel needs to send one delivery. */
export type DeliveryTarget = Pick<ClaimedDelivery, 'channel' | 'recipient' | 'type' | 'deliveryUid' | 'notificationId'>;

/** One channel's way of sending a delivery; rejects with a `SendError` (channels/send-error.ts). */
export interface ChannelSender {
  /** Whose back-off this delivery is subject to; null when the receiver never asks to wait. */
  providerOf(target: Pick<DeliveryTarget, 'recipient'>): string | null;
  send(target: DeliveryTarget, ctx: IncidentContext): Promise<void>;
}

export type ChannelSenders = Partial<Record<DeliveryChannel, ChannelSender>>;

/** Email: the incident's message to one address, through the configured transport. */
export function emailSender(channel: EmailChannel, mailFrom: string): ChannelSender {
  return {
    providerOf: () => channel.provider ?? null,
    send: (target, ctx) => channel.send(composeIncidentEmail(target.type, ctx, mailFrom, target.recipient)),
  };
}
