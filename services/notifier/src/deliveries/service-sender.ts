import type { SecretKeyring } from '@uptime/db';
import { channelFieldsOf, type AddressPolicy, type ServiceChannelConfig, type ServiceChannelType } from '@uptime/probe';
import type { AlertContext, AttachedChannel } from '../alert';
import { channelConfigOf, channelIdOf, channelOfAlert, channelRecipient } from '../channel-deliveries';
import { acknowledgedNoticeOf, noticeOf } from '../channels/channel-notice';
import { SendError } from '../channels/send-error';
import type { ServiceSendDeps } from '../channels/service-channel';
import { providerOfServiceChannel, sendToServiceChannel } from '../channels/service-channels';
import type { ChannelSender, DeliveryTarget } from './channel-sender';

export interface ServiceSenderOptions {
  appUrl: string;
  addressPolicy: AddressPolicy;
  endpoints: ServiceSendDeps['endpoints'];
  keyring?: SecretKeyring;
}

/**
 * A channel's opened config as its service's module takes it: every declared field present, a
 * field left unset (null is not stored) as its default or null.
 */
export function serviceChannelOf(type: ServiceChannelType, opened: Record<string, unknown>): ServiceChannelConfig {
  const config: Record<string, unknown> = {};
  for (const field of channelFieldsOf(type)) config[field.wire] = opened[field.wire] ?? field.default ?? null;
  return { type, config } as ServiceChannelConfig;
}

/** The config of the channel `channelId` of `alert`, opened, as a service's module takes it. */
function configuredChannel(type: ServiceChannelType, alert: AlertContext, channelId: number, keyring: SecretKeyring | undefined): ServiceChannelConfig {
  return serviceChannelOf(type, channelConfigOf(alert, channelId, keyring));
}

const attachedOf = (alert: AlertContext | undefined, channelId: number): AttachedChannel | undefined => (alert ? channelOfAlert(alert, channelId) : undefined);

/**
 * A service channel (Discord, Telegram, ... ; docs/channels.md, "The services") on the one
 * delivery path: the delivery names the channel, whose secrets are opened only now, and the
 * message is the notice of the delivery's alert, phase and kind (a reminder says "still down",
 * an `acknowledged` delivery is PagerDuty's acknowledge). sendToServiceChannel() goes through the
 * SSRF guard, follows no redirect, reads at most 64 KiB and turns a 429's Retry-After into the
 * pause attempt-delivery.ts records.
 */
export function serviceSender(type: ServiceChannelType, options: ServiceSenderOptions): ChannelSender {
  const deps: ServiceSendDeps = { addressPolicy: options.addressPolicy, endpoints: options.endpoints };
  const channelIdFor = (target: Pick<DeliveryTarget, 'recipient' | 'channelId'>): number => {
    const id = channelIdOf(target);
    if (id === null) throw new SendError(`a ${type} delivery must name its channel`, 'permanent');
    return id;
  };
  return {
    // The service's own back-off key (its host, Telegram's bot); the channel's when its config cannot be read now.
    providerOf: (target, alert) => {
      const id = channelIdOf(target);
      const fallback = `${type}:${id === null ? target.recipient : channelRecipient(id)}`;
      if (id === null || !attachedOf(alert, id) || !alert) return fallback;
      try {
        return providerOfServiceChannel(configuredChannel(type, alert, id, options.keyring), options.endpoints);
      } catch {
        return fallback;
      }
    },
    send: async (target, alert) => {
      const channel = configuredChannel(type, alert, channelIdFor(target), options.keyring);
      const notice = target.phase === 'acknowledged' ? acknowledgedNoticeOf(alert, options.appUrl, target.changedAt) : noticeOf(target, alert, options.appUrl);
      await sendToServiceChannel(channel, notice, deps);
    },
  };
}
