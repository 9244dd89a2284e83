import type { ServiceChannelConfig, ServiceChannelType } from '@uptime/probe';
import type { ChannelNotice } from './channel-notice';
import { discordChannel } from './discord';
import { googleChatChannel } from './google-chat';
import { mattermostChannel } from './mattermost';
import { ntfyChannel } from './ntfy';
import { pagerdutyChannel } from './pagerduty';
import { pushoverChannel } from './pushover';
import { sendOnService, type ServiceChannel, type ServiceSendDeps } from './service-channel';
import { teamsChannel } from './teams';
import { telegramChannel } from './telegram';

/** Every service channel by its type (docs/channels.md, "The services"). */
export const SERVICE_CHANNELS: { [T in ServiceChannelType]: ServiceChannel<T> } = {
  discord: discordChannel,
  telegram: telegramChannel,
  teams: teamsChannel,
  pagerduty: pagerdutyChannel,
  ntfy: ntfyChannel,
  pushover: pushoverChannel,
  google_chat: googleChatChannel,
  mattermost: mattermostChannel,
};

/** The channel of `channel.type`, taking its config as that type's (the union keeps the pairing). */
const channelOf = (channel: ServiceChannelConfig): ServiceChannel<ServiceChannelType> =>
  SERVICE_CHANNELS[channel.type] as unknown as ServiceChannel<ServiceChannelType>;

/** Sends `notice` on a configured channel of any service type; rejects with a SendError (send-error.ts). */
export const sendToServiceChannel = (channel: ServiceChannelConfig, notice: ChannelNotice, deps: ServiceSendDeps): Promise<void> =>
  sendOnService(channelOf(channel), channel.config as never, notice, deps);

/** Whose back-off an answer of `channel` sets (deliveries/channel-sender.ts `providerOf`). */
export const providerOfServiceChannel = (channel: ServiceChannelConfig, endpoints: ServiceSendDeps['endpoints']): string =>
  channelOf(channel).providerOf(channel.config as never, endpoints);
