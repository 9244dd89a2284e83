import { allowPublicAddressesOnly, type ChannelConfigOf, type ServiceChannelConfig, type ServiceChannelType } from '@uptime/probe';
import {
  FAKE_NTFY_TOKEN,
  FAKE_PAGERDUTY_ROUTING_KEY,
  FAKE_PUSHOVER_APP_TOKEN,
  FAKE_PUSHOVER_USER_KEY,
  FAKE_TELEGRAM_CHAT,
  FAKE_TELEGRAM_TOKEN,
  startFakeDiscord,
  startFakeHttpServer,
  startFakeGoogleChat,
  startFakeMattermost,
  startFakeNtfy,
  startFakePagerDuty,
  startFakePushover,
  startFakeTeams,
  startFakeTelegram,
  type FakeService,
} from '@uptime/testing';
import { NOTICE_EVENTS } from '../src/channels/channel-notice';
import { SendError } from '../src/channels/send-error';
import { sendToServiceChannel } from '../src/channels/service-channels';
import type { ServiceSendDeps } from '../src/channels/service-channel';
import { NOTICES, serviceDepsFor } from './support/channel-notices';

/** Each type: its fake, a config that reaches it, and one whose credential the fake refuses. */
interface Case<T extends ServiceChannelType> {
  start(): Promise<FakeService<unknown>>;
  config(fake: FakeService<unknown>): ChannelConfigOf<T>;
  badCredential(config: ChannelConfigOf<T>): ChannelConfigOf<T>;
}

const CASES: { [T in ServiceChannelType]: Case<T> } = {
  discord: {
    start: startFakeDiscord,
    config: (fake) => ({ webhook_url: fake.url }),
    badCredential: (c) => ({ webhook_url: c.webhook_url.replace(/[^/]+$/, 'wrong-token') }),
  },
  telegram: {
    start: startFakeTelegram,
    config: () => ({ bot_token: FAKE_TELEGRAM_TOKEN, chat_id: FAKE_TELEGRAM_CHAT }),
    badCredential: (c) => ({ ...c, bot_token: '123456789:WRONGWRONGWRONGWRONGWRONGWRONGWRONG' }),
  },
  teams: {
    start: startFakeTeams,
    config: (fake) => ({ webhook_url: fake.url }),
    badCredential: (c) => ({ webhook_url: c.webhook_url.replace(/sig=.*$/, 'sig=forged') }),
  },
  pagerduty: {
    start: startFakePagerDuty,
    config: () => ({ routing_key: FAKE_PAGERDUTY_ROUTING_KEY, severity: 'critical' }),
    badCredential: (c) => ({ ...c, routing_key: 'X'.repeat(32) }),
  },
  ntfy: {
    start: () => startFakeNtfy(),
    config: (fake) => ({ server_url: fake.url, topic: 'uptime-alerts', token: FAKE_NTFY_TOKEN, priority: 5 }),
    badCredential: (c) => ({ ...c, token: 'tk_wrong' }),
  },
  pushover: {
    start: startFakePushover,
    config: () => ({ app_token: FAKE_PUSHOVER_APP_TOKEN, user_key: FAKE_PUSHOVER_USER_KEY, device: null, priority: 2, retry: 60, expire: 3600 }),
    badCredential: (c) => ({ ...c, app_token: 'w'.repeat(30) }),
  },
  google_chat: {
    start: startFakeGoogleChat,
    config: (fake) => ({ webhook_url: fake.url }),
    badCredential: (c) => ({ webhook_url: c.webhook_url.replace(/token=.*$/, 'token=forged') }),
  },
  mattermost: {
    start: startFakeMattermost,
    config: (fake) => ({ webhook_url: fake.url, channel: 'town-square', username: 'Uptime' }),
    badCredential: (c) => ({ ...c, webhook_url: c.webhook_url.replace(/[^/]+$/, 'unknownhook') }),
  },
};

const TYPES = Object.keys(CASES) as ServiceChannelType[];

const depsFor = (fake: FakeService<unknown>, overrides: Partial<ServiceSendDeps> = {}): ServiceSendDeps => serviceDepsFor(fake.url, overrides);

const channelOf = <T extends ServiceChannelType>(type: T, config: ChannelConfigOf<T>): ServiceChannelConfig => ({ type, config }) as ServiceChannelConfig;

describe.each(TYPES)('the %s channel against its fake', (type) => {
  const c = CASES[type] as Case<typeof type>;
  let fake: FakeService<unknown>;
  beforeEach(async () => {
    fake = await c.start();
  });
  afterEach(() => fake.close());

  it('sends every event, each accepted by the fake as the real service would', async () => {
    for (const event of NOTICE_EVENTS) await sendToServiceChannel(channelOf(type, c.config(fake)), NOTICES[event], depsFor(fake));
    expect(fake.refused.map((r) => r.reason)).toEqual([]);
    expect(fake.received).toHaveLength(NOTICE_EVENTS.length);
  });

  it('fails for good on a credential the service refuses', async () => {
    const send = sendToServiceChannel(channelOf(type, c.badCredential(c.config(fake))), NOTICES.down, depsFor(fake));
    await expect(send).rejects.toMatchObject({ kind: 'permanent' });
    expect(fake.refused).toHaveLength(1);
    expect(fake.received).toEqual([]);
  });

  it('takes a 429 as transient and waits for its Retry-After', async () => {
    fake.setMode({ kind: 'rate-limited', retryAfterSeconds: 30 });
    const before = Date.now();
    const err = await sendToServiceChannel(channelOf(type, c.config(fake)), NOTICES.down, depsFor(fake)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SendError);
    const sendError = err as SendError;
    expect(sendError.kind).toBe('transient');
    expect(sendError.notBefore?.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    expect(sendError.notBefore?.getTime()).toBeLessThanOrEqual(Date.now() + 31_000);
  });

  it('takes a 5xx as transient, with no pause asked', async () => {
    fake.setMode({ kind: 'error' });
    await expect(sendToServiceChannel(channelOf(type, c.config(fake)), NOTICES.down, depsFor(fake))).rejects.toMatchObject({ kind: 'transient', notBefore: null });
  });

  it('takes no answer after the request was sent as ambiguous', async () => {
    fake.setMode({ kind: 'hang' });
    await expect(sendToServiceChannel(channelOf(type, c.config(fake)), NOTICES.down, depsFor(fake, { timeoutMs: 300 }))).rejects.toMatchObject({ kind: 'ambiguous' });
    expect(fake.server.requests).toHaveLength(1);
  });

  it('follows no redirect: a 3xx fails for good and its location is never asked', async () => {
    const elsewhere = await startFakeHttpServer();
    fake.server.respond((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/stolen` });
      res.end();
    });
    await expect(sendToServiceChannel(channelOf(type, c.config(fake)), NOTICES.down, depsFor(fake))).rejects.toMatchObject({ kind: 'permanent' });
    expect(elsewhere.requests).toEqual([]);
    await elsewhere.close();
  });

  it('is refused by the SSRF guard before connecting when private targets are not allowed', async () => {
    const send = sendToServiceChannel(channelOf(type, c.config(fake)), NOTICES.down, depsFor(fake, { addressPolicy: allowPublicAddressesOnly }));
    await expect(send).rejects.toMatchObject({ kind: 'permanent', message: expect.stringMatching(/Target address 127\.0\.0\.1 is not allowed/) });
    expect(fake.server.requests).toEqual([]);
  });
});
