import type { ChannelConfigOf } from '@uptime/probe';
import { clip, hexColour, type ChannelNotice } from './channel-notice';
import { hostProvider, type ServiceChannel } from './service-channel';

/** An incoming-webhook message with one attachment (https://developers.mattermost.com/integrate/webhooks/incoming/). */
export interface MattermostMessage {
  channel?: string;
  username?: string;
  attachments: Array<{
    fallback: string;
    color: string;
    title: string;
    title_link: string;
    text: string;
    fields: Array<{ short: boolean; title: string; value: string }>;
    footer: string;
  }>;
}

/** Mattermost renders Markdown in attachments: a monitor's name is shown as written. */
export const escapeMattermostMarkdown = (text: string): string => text.replace(/([\\*_[\]()#>`~|])/g, '\\$1');

export function composeMattermost(notice: ChannelNotice, config: Pick<ChannelConfigOf<'mattermost'>, 'channel' | 'username'>): MattermostMessage {
  return {
    ...(config.channel ? { channel: config.channel } : {}),
    ...(config.username ? { username: config.username } : {}),
    attachments: [
      {
        fallback: clip(`${notice.title} ${notice.link}`, 1024),
        color: hexColour(notice.event),
        title: escapeMattermostMarkdown(clip(notice.title, 256)),
        title_link: notice.link,
        text: escapeMattermostMarkdown(clip(notice.headline, 4000)),
        fields: notice.facts.map(([title, value]) => ({ short: true, title, value: escapeMattermostMarkdown(clip(value, 1024)) })),
        footer: 'Uptime',
      },
    ],
  };
}

/** Mattermost: the incoming webhook answers 200 `ok`; 400 for a malformed message, 403 when an override is not allowed. */
export const mattermostChannel: ServiceChannel<'mattermost'> = {
  service: 'Mattermost',
  providerOf: (config) => hostProvider('mattermost', config.webhook_url),
  requestOf: (config, notice) => ({ url: config.webhook_url, payload: composeMattermost(notice, config) }),
};
