import type { ChannelConfigOf, ServiceChannelType } from '@uptime/probe';
import { startFakeDiscord, startFakeGoogleChat, startFakeMattermost, startFakeTeams } from './fake-chat-webhooks';
import { FAKE_NTFY_TOKEN, FAKE_PUSHOVER_APP_TOKEN, FAKE_PUSHOVER_USER_KEY, startFakeNtfy, startFakePushover } from './fake-ntfy-pushover';
import { FAKE_PAGERDUTY_ROUTING_KEY, startFakePagerDuty, type FakePagerDuty } from './fake-pagerduty';
import type { FakeService } from './fake-service';
import { FAKE_TELEGRAM_CHAT, FAKE_TELEGRAM_TOKEN, startFakeTelegram } from './fake-telegram';

/** A fake of each of the eight services, by channel type. */
export type EveryFakeChannel = { [T in Exclude<ServiceChannelType, 'pagerduty'>]: FakeService<unknown> } & { pagerduty: FakePagerDuty };

/** Starts the fake of every service channel at once. */
export async function startEveryFakeChannel(): Promise<EveryFakeChannel> {
  const [discord, telegram, teams, pagerduty, ntfy, pushover, google_chat, mattermost] = await Promise.all([
    startFakeDiscord(),
    startFakeTelegram(),
    startFakeTeams(),
    startFakePagerDuty(),
    startFakeNtfy(),
    startFakePushover(),
    startFakeGoogleChat(),
    startFakeMattermost(),
  ]);
  return { discord, telegram, teams, pagerduty, ntfy, pushover, google_chat, mattermost };
}

/** The base-URL variables (TELEGRAM_API_URL...) pointing at the fakes, as `Config['channelServices']`. */
export const fakeChannelServices = (f: EveryFakeChannel) => ({ telegramApiUrl: f.telegram.url, pagerdutyEventsUrl: f.pagerduty.url, pushoverApiUrl: f.pushover.url });

/** A config of each type that each fake accepts (its credentials and URL). */
export function fakeChannelConfigs(f: EveryFakeChannel): { [T in ServiceChannelType]: ChannelConfigOf<T> } {
  return {
    discord: { webhook_url: f.discord.url },
    telegram: { bot_token: FAKE_TELEGRAM_TOKEN, chat_id: FAKE_TELEGRAM_CHAT },
    teams: { webhook_url: f.teams.url },
    pagerduty: { routing_key: FAKE_PAGERDUTY_ROUTING_KEY, severity: 'critical' },
    ntfy: { server_url: f.ntfy.url, topic: 'uptime-alerts', token: FAKE_NTFY_TOKEN, priority: 5 },
    pushover: { app_token: FAKE_PUSHOVER_APP_TOKEN, user_key: FAKE_PUSHOVER_USER_KEY, device: null, priority: 2, retry: 60, expire: 3600 },
    google_chat: { webhook_url: f.google_chat.url },
    mattermost: { webhook_url: f.mattermost.url, channel: null, username: 'Uptime' },
  };
}
