import { clip, type ChannelNotice } from './channel-notice';
import { hostProvider, jsonOf, type ServiceChannel } from './service-channel';
import type { ChannelConfigOf } from '@uptime/probe';

/** Pushover's emergency priority: repeated every `retry` seconds until acknowledged or `expire` seconds pass. */
export const PUSHOVER_EMERGENCY = 2;

/** A message (https://pushover.net/api#messages), sent as JSON. */
export interface PushoverMessage {
  token: string;
  user: string;
  device?: string;
  title: string;
  message: string;
  url: string;
  url_title: string;
  priority: number;
  /** Unix seconds: when it happened, not when it was delivered. */
  timestamp: number;
  retry?: number;
  expire?: number;
}

/**
 * A down message at the configured priority; every other at 0 (normal) at most, so only an outage
 * can be an emergency that repeats until someone acknowledges it in Pushover.
 */
export function composePushover(notice: ChannelNotice, config: ChannelConfigOf<'pushover'>): PushoverMessage {
  const priority = notice.event === 'down' ? config.priority : Math.min(config.priority, 0);
  const message = [notice.headline, ...notice.facts.map(([label, value]) => `${label}: ${value}`)].join('\n');
  return {
    token: config.app_token,
    user: config.user_key,
    ...(config.device ? { device: config.device } : {}),
    title: clip(notice.title, 250),
    message: clip(message, 1024),
    url: clip(notice.link, 512),
    url_title: 'Open the monitor',
    priority,
    timestamp: Math.floor(notice.at.getTime() / 1000),
    ...(priority === PUSHOVER_EMERGENCY ? { retry: config.retry, expire: config.expire } : {}),
  };
}

/** Pushover: answered 200 `{"status": 1}`; 4xx `{"status": 0, "errors": [...]}`; 429 when the application is over its limit. */
export const pushoverChannel: ServiceChannel<'pushover'> = {
  service: 'Pushover',
  providerOf: (_config, endpoints) => hostProvider('pushover', endpoints.pushoverApiUrl),
  requestOf: (config, notice, endpoints) => ({ url: endpoints.pushoverApiUrl, payload: composePushover(notice, config) }),
  isAccepted: (answer) => jsonOf(answer)?.status === 1,
};
