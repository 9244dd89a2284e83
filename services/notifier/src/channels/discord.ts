import { clip, EVENT_COLOURS, type ChannelNotice } from './channel-notice';
import { hostProvider, type ServiceChannel } from './service-channel';

/** An execute-webhook body (https://discord.com/developers/docs/resources/webhook#execute-webhook). */
export interface DiscordMessage {
  username: string;
  embeds: Array<{
    title: string;
    description: string;
    url: string;
    color: number;
    fields: Array<{ name: string; value: string; inline: boolean }>;
    timestamp: string;
    footer: { text: string };
  }>;
  /** No mention is parsed: a monitor named "@everyone" pings nobody. */
  allowed_mentions: { parse: never[] };
}

/** One embed coloured by event, its facts as fields, titled and linked to the monitor's page; within Discord's embed limits. */
export function composeDiscord(notice: ChannelNotice): DiscordMessage {
  return {
    username: 'Uptime',
    embeds: [
      {
        title: clip(notice.title, 256),
        description: clip(notice.headline, 4096),
        url: notice.link,
        color: EVENT_COLOURS[notice.event],
        fields: notice.facts.slice(0, 25).map(([name, value]) => ({ name: clip(name, 256), value: clip(value, 1024), inline: true })),
        timestamp: notice.at.toISOString(),
        footer: { text: clip(notice.monitor.name, 2048) },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** Discord: the webhook answers 204 (or 200); a 429 carries Retry-After. */
export const discordChannel: ServiceChannel<'discord'> = {
  service: 'Discord',
  providerOf: (config) => hostProvider('discord', config.webhook_url),
  requestOf: (config, notice) => ({ url: config.webhook_url, payload: composeDiscord(notice) }),
};
