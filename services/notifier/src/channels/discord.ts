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

/**
 * Within Discord's embed limits (title 256, description 4096, 25 fields of 256 + 1024, footer
 * 2048) and under its 6,000 characters for all of them together: 256 + 1024 + 8 × (64 + 400) + 256.
 */
const LIMITS = { title: 256, description: 1024, fields: 8, name: 64, value: 400, footer: 256 } as const;

/** One embed coloured by event, its facts as fields, titled and linked to the monitor's page. */
export function composeDiscord(notice: ChannelNotice): DiscordMessage {
  return {
    username: 'Uptime',
    embeds: [
      {
        title: clip(notice.title, LIMITS.title),
        description: clip(notice.headline, LIMITS.description),
        url: notice.link,
        color: EVENT_COLOURS[notice.event],
        fields: notice.facts.slice(0, LIMITS.fields).map(([name, value]) => ({ name: clip(name, LIMITS.name), value: clip(value, LIMITS.value), inline: true })),
        timestamp: notice.at.toISOString(),
        footer: { text: clip(notice.monitor.name, LIMITS.footer) },
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
