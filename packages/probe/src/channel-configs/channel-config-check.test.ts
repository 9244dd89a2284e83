import { parseChannelConfig } from './channel-config-check';
import { SERVICE_CHANNEL_TYPES, secretFieldsOf } from './channel-fields';

const open = { allowPrivateTargets: true };
const guarded = { allowPrivateTargets: false };
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

describe('parseChannelConfig', () => {
  it('fills the defaults of the fields left out', () => {
    expect(parseChannelConfig('ntfy', { topic: 'uptime-alerts' }, open)).toEqual({
      ok: true,
      config: { server_url: 'https://ntfy.sh', topic: 'uptime-alerts', token: null, priority: 5 },
    });
    expect(parseChannelConfig('pagerduty', { routing_key: 'R'.repeat(32) }, open)).toEqual({ ok: true, config: { routing_key: 'R'.repeat(32), severity: 'critical' } });
  });

  it('names each missing, unknown or malformed field under config.', () => {
    const result = parseChannelConfig('telegram', { bot_token: 'nope', extra: 1 }, open);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.problems).sort()).toEqual(['config.bot_token', 'config.chat_id', 'config.extra']);
    expect(result.problems['config.chat_id']).toEqual(['is required']);
    expect(result.problems['config.bot_token']?.[0]).toMatch(/Bot API token/);
  });

  it('accepts a numeric chat id, a group id and a channel username', () => {
    for (const chat_id of ['12345', '-1001234567890', '@uptime_alerts']) {
      expect(parseChannelConfig('telegram', { bot_token: BOT_TOKEN, chat_id }, open).ok).toBe(true);
    }
    expect(parseChannelConfig('telegram', { bot_token: BOT_TOKEN, chat_id: 'x y' }, open).ok).toBe(false);
  });

  it('refuses a webhook URL on a private address unless private targets are allowed, and takes any public host', () => {
    const local = { webhook_url: 'http://127.0.0.1:8065/hooks/abc' };
    expect(parseChannelConfig('mattermost', local, open).ok).toBe(true);
    expect(parseChannelConfig('mattermost', local, guarded)).toEqual({
      ok: false,
      problems: { 'config.webhook_url': [expect.stringMatching(/Target address 127\.0\.0\.1 is not allowed/)] },
    });
    expect(parseChannelConfig('discord', { webhook_url: 'https://chat.example.org/api/webhooks/1/x' }, guarded).ok).toBe(true);
    expect(parseChannelConfig('discord', { webhook_url: 'ftp://example.org/x' }, open).ok).toBe(false);
  });

  it("refuses a Pushover emergency retry longer than its expiry, and the bounds of Pushover's API", () => {
    const keys = { app_token: 'a'.repeat(30), user_key: 'u'.repeat(30) };
    expect(parseChannelConfig('pushover', { ...keys, priority: 2, retry: 600, expire: 300 }, open)).toEqual({
      ok: false,
      problems: { 'config.retry': ['must not be greater than expire: an emergency message would never repeat'] },
    });
    expect(parseChannelConfig('pushover', { ...keys, priority: 2, retry: 10 }, open).ok).toBe(false);
    expect(parseChannelConfig('pushover', { ...keys, priority: 2, expire: 86400 }, open).ok).toBe(false);
    expect(parseChannelConfig('pushover', { ...keys, priority: 2 }, open)).toEqual({
      ok: true,
      config: { ...keys, device: null, priority: 2, retry: 60, expire: 3600 },
    });
  });

  it('refuses a config that is not an object', () => {
    expect(parseChannelConfig('teams', 'https://example.org', open)).toEqual({ ok: false, problems: { config: ['must be an object'] } });
  });
});

describe('secretFieldsOf', () => {
  it('lists the credentials of every type, and no type is without one', () => {
    expect(secretFieldsOf('telegram')).toEqual(['bot_token']);
    expect(secretFieldsOf('pushover')).toEqual(['app_token', 'user_key']);
    expect(secretFieldsOf('ntfy')).toEqual(['token']);
    for (const type of SERVICE_CHANNEL_TYPES) expect(secretFieldsOf(type).length).toBeGreaterThan(0);
  });
});
