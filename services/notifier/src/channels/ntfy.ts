import { clip, isAlarm, type ChannelNotice, type NoticeEvent } from './channel-notice';
import { hostProvider, type ServiceChannel } from './service-channel';

/** A message published as JSON to the server's root (https://docs.ntfy.sh/publish/#publish-as-json). */
export interface NtfyMessage {
  topic: string;
  title: string;
  message: string;
  priority: number;
  tags: string[];
  click: string;
  actions: Array<{ action: 'view'; label: string; url: string; clear: boolean }>;
}

/** Tags that match an emoji short code are shown as that emoji before the title. */
const TAGS: Record<NoticeEvent, string> = {
  down: 'rotating_light',
  up: 'white_check_mark',
  slow: 'snail',
  slow_resolved: 'white_check_mark',
  certificate: 'lock',
  acknowledged: 'eyes',
  test: 'test_tube',
};

/** ntfy's default priority: what a recovery or a test is sent at, at most. */
const DEFAULT_PRIORITY = 3;

export function composeNtfy(notice: ChannelNotice, config: { topic: string; priority: number }): NtfyMessage {
  const body = [notice.headline, ...notice.facts.map(([label, value]) => `${label}: ${value}`)].join('\n');
  return {
    topic: config.topic,
    title: clip(notice.title, 256),
    message: clip(body, 4000),
    priority: isAlarm(notice.event) ? config.priority : Math.min(config.priority, DEFAULT_PRIORITY),
    tags: [TAGS[notice.event], 'uptime'],
    click: notice.link,
    actions: [{ action: 'view', label: 'Open the monitor', url: notice.link, clear: false }],
  };
}

/** ntfy: POST the JSON to the server's root, with the access token as a Bearer token when set; answered 200. */
export const ntfyChannel: ServiceChannel<'ntfy'> = {
  service: 'ntfy',
  providerOf: (config) => hostProvider('ntfy', config.server_url),
  requestOf: (config, notice) => ({
    url: `${config.server_url.replace(/\/+$/, '')}/`,
    ...(config.token ? { headers: { authorization: `Bearer ${config.token}` } } : {}),
    payload: composeNtfy(notice, config),
  }),
};
