import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { SecretKeyring, SecretOpenError, type User } from '@uptime/db';
import { resealChannelSecrets } from '../src/channels/channel-secrets';
import { createLogger } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import { aCaller, aMonitor, startFakeDiscord, startFakeSlack, type FakeSlack } from '@uptime/testing';
import { expectError, expectMeta, useApiHarness } from './support/api-harness';

/** Channels as organization resources (docs/channels.md). */
const h = useApiHarness();
const noPrivate = useApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
const OLD_KEY = randomBytes(32);
const rotating = useApiHarness({ SECRETS_KEY: OLD_KEY.toString('hex') });
let user: User;
let auth: string;
let otherAuth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, as = auth) => request(h.app)[method](`/api/v1/channels${path}`).set('Authorization', as);

const SLACK_URL = 'https://hooks.slack.example/services/T000/B000/slack-secret-path-9d2f';
const SIGNING_KEY = 'signing-key-0123456789-abcdef';

async function create(body: Record<string, unknown>, as = auth) {
  const res = await api('post', '', as).send(body);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; config: Record<string, unknown>; is_default: boolean };
}

describe('POST /channels', () => {
  it('answers 201 with an email channel, its recipients lower-cased and without repeats', async () => {
    const res = await api('post', '').send({ name: 'On-call', type: 'email', config: { recipients: ['Ops@Example.com', 'ops@example.com'] }, is_default: true });
    expect(res.status).toBe(201);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'On-call',
      type: 'email',
      config: { recipients: ['ops@example.com'] },
      is_default: true,
      key: null,
      managed_by: null,
      config_fingerprints: {},
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it('never answers a secret: a Slack URL shows as webhook_url_set, in the create, the read and the list', async () => {
    const channel = await create({ name: 'Slack', type: 'slack', config: { webhook_url: SLACK_URL } });
    expect(channel.config).toEqual({ webhook_url_set: true });
    const read = await api('get', `/${channel.id}`);
    const list = await api('get', '');
    for (const res of [read, list]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('slack-secret-path');
    }
    expect(read.body.data.config).toEqual({ webhook_url_set: true });
  });

  it('generates a webhook signing key when none is given and shows it in that answer only', async () => {
    const channel = await create({ name: 'Hook', type: 'webhook', config: { url: 'https://hooks.example.test/in' } });
    expect(channel.config).toEqual({ url: 'https://hooks.example.test/in', secret_set: true, secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/) });
    const read = await api('get', `/${channel.id}`);
    expect(read.body.data.config).toEqual({ url: 'https://hooks.example.test/in', secret_set: true });
  });

  it('names each invalid, missing or unknown config field in one 400', async () => {
    const res = await api('post', '').send({ name: 'Hook', type: 'webhook', config: { url: 'ftp://nope', secret: 'short', colour: 'red' } });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['config.colour', 'config.secret', 'config.url']);
    const missing = await api('post', '').send({ name: 'Slack', type: 'slack', config: {} });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.error.details).toEqual({ 'config.webhook_url': ['config.webhook_url is required'] });
  });

  it('names the missing fields and refuses an unknown type', async () => {
    const res = await api('post', '').send({ type: 'carrier_pigeon' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['config', 'name', 'type']);
  });

  it('refuses a private address as a URL when private targets are not allowed', async () => {
    const { auth: caller } = await aCaller(noPrivate.ds);
    const res = await request(noPrivate.app)
      .post('/api/v1/channels')
      .set('Authorization', caller)
      .send({ name: 'Hook', type: 'webhook', config: { url: 'http://169.254.169.254/latest' } });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual(['config.url']);
  });
});

describe('PUT and PATCH /channels/{id}', () => {
  it('merges the config: a secret left out is kept, a field given replaces', async () => {
    const channel = await create({ name: 'Hook', type: 'webhook', config: { url: 'https://a.example.test/', secret: SIGNING_KEY } });
    const res = await api('patch', `/${channel.id}`).send({ name: 'Renamed', config: { url: 'https://b.example.test/' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', config: { url: 'https://b.example.test/', secret_set: true } });
    expect(res.text).not.toContain(SIGNING_KEY);
    const [row]: { secret_fields: string[] }[] = await h.ds.query(`SELECT secret_fields FROM channels WHERE id = $1`, [channel.id]);
    expect(row!.secret_fields).toEqual(['secret']);
  });

  it('refuses a change of type', async () => {
    const channel = await create({ name: 'Email', type: 'email', config: { recipients: ['a@example.com'] } });
    expectError(await api('put', `/${channel.id}`).send({ type: 'slack' }), 400, 'VALIDATION_ERROR');
  });

  it('attaches the channel to every monitor of the organization with apply_to_all_monitors', async () => {
    const a = await aMonitor(h.ds, user);
    const b = await aMonitor(h.ds, user);
    const channel = await create({ name: 'Email', type: 'email', config: { recipients: ['a@example.com'] } });
    const res = await api('put', `/${channel.id}`).send({ apply_to_all_monitors: true });
    expect(res.status).toBe(200);
    expect(res.body.data.attached_monitors).toBe(2);
    const attached: { monitor_id: number }[] = await h.ds.query(`SELECT monitor_id FROM monitor_channels WHERE channel_id = $1 ORDER BY monitor_id`, [channel.id]);
    expect(attached.map((r) => r.monitor_id)).toEqual([a.id, b.id]);
    const again = await api('put', `/${channel.id}`).send({ apply_to_all_monitors: true });
    expect(again.body.data.attached_monitors).toBe(0);
  });
});

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

describe('the service channel types', () => {
  it('takes each of the eight with its config, defaults filled in and secrets write-only', async () => {
    const bodies: Record<string, Record<string, unknown>> = {
      discord: { webhook_url: 'https://discord.example/api/webhooks/1/discord-secret' },
      telegram: { bot_token: BOT_TOKEN, chat_id: '-100123' },
      teams: { webhook_url: 'https://teams.example/workflows/teams-secret' },
      pagerduty: { routing_key: 'R'.repeat(32) },
      ntfy: { topic: 'uptime-alerts', token: 'tk_ntfy-secret' },
      pushover: { app_token: 'a'.repeat(30), user_key: 'u'.repeat(30), priority: 2 },
      google_chat: { webhook_url: 'https://chat.example/v1/spaces/x/messages?key=gchat-secret' },
      mattermost: { webhook_url: 'https://mm.example/hooks/mattermost-secret', username: 'Uptime' },
    };
    const answers: Record<string, Record<string, unknown>> = {};
    for (const [type, config] of Object.entries(bodies)) {
      const res = await api('post', '').send({ name: type, type, config });
      expect(res.status).toBe(201);
      expect(res.body.data.type).toBe(type);
      expect(res.text).not.toMatch(/secret|AAHdq|RRRR|aaaa|uuuu/);
      answers[type] = res.body.data.config;
    }
    expect(answers).toEqual({
      discord: { webhook_url_set: true },
      telegram: { bot_token_set: true, chat_id: '-100123' },
      teams: { webhook_url_set: true },
      pagerduty: { routing_key_set: true, severity: 'critical' },
      ntfy: { server_url: 'https://ntfy.sh', topic: 'uptime-alerts', token_set: true, priority: 5 },
      pushover: { app_token_set: true, user_key_set: true, device: null, priority: 2, retry: 60, expire: 3600 },
      google_chat: { webhook_url_set: true },
      mattermost: { webhook_url_set: true, channel: null, username: 'Uptime' },
    });
  });

  it('names the field of each problem in a 400', async () => {
    const telegram = await api('post', '').send({ name: 'T', type: 'telegram', config: { bot_token: 'nope' } });
    expectError(telegram, 400, 'VALIDATION_ERROR');
    expect(Object.keys(telegram.body.error.details).sort()).toEqual(['config.bot_token', 'config.chat_id']);
    expect(telegram.body.error.details['config.chat_id']).toEqual(['config.chat_id is required']);
    const pushover = await api('post', '').send({ name: 'P', type: 'pushover', config: { app_token: 'a'.repeat(30), user_key: 'u'.repeat(30), priority: 2, retry: 600, expire: 300 } });
    expectError(pushover, 400, 'VALIDATION_ERROR');
    expect(Object.keys(pushover.body.error.details)).toEqual(['config.retry']);
    const pagerduty = await api('post', '').send({ name: 'PD', type: 'pagerduty', config: { routing_key: 'R'.repeat(32), severity: 'apocalyptic' } });
    expect(Object.keys(pagerduty.body.error.details)).toEqual(['config.severity']);
  });

  it('keeps a secret left out of an update and changes the plain fields given', async () => {
    const channel = await create({ name: 'T', type: 'telegram', config: { bot_token: BOT_TOKEN, chat_id: '1' } });
    const res = await api('patch', `/${channel.id}`).send({ config: { chat_id: '@uptime_alerts' } });
    expect(res.status).toBe(200);
    expect(res.body.data.config).toEqual({ bot_token_set: true, chat_id: '@uptime_alerts' });
    const [row]: { sealed_secrets: string; config: unknown }[] = await h.ds.query(`SELECT sealed_secrets, config FROM channels WHERE id = $1`, [channel.id]);
    expect(row!.config).toEqual({ chat_id: '@uptime_alerts' });
    expect(row!.sealed_secrets).not.toContain('AAHdq');
  });

  it('refuses a private address in a service webhook URL when private targets are not allowed', async () => {
    const { auth: caller } = await aCaller(noPrivate.ds);
    for (const [type, config, field] of [
      ['mattermost', { webhook_url: 'http://127.0.0.1:8065/hooks/abc' }, 'config.webhook_url'],
      ['ntfy', { server_url: 'http://10.0.0.5/', topic: 'alerts' }, 'config.server_url'],
    ] as const) {
      const res = await request(noPrivate.app).post('/api/v1/channels').set('Authorization', caller).send({ name: type, type, config });
      expectError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.details[field]).toEqual([expect.stringMatching(new RegExp(`^${field} is not allowed`))]);
    }
  });
});

describe('config_fingerprints (docs/config-as-code.md, "Secrets")', () => {
  const FINGERPRINT = 'scrypt1:3q2NbPzQ0cXvl5WUVN4Frw:y2JxXqkqkV3i7o0z2mZ0Qy8o0lQ6fS1Kd0bqGQhC3y4';

  it('keeps them as given, drops one whose value changes without a new one, and replaces those given', async () => {
    const channel = (await api('post', '').send({ name: 'Ops', type: 'slack', config: { webhook_url: SLACK_URL }, config_fingerprints: { webhook_url: FINGERPRINT } }).expect(201)).body.data;
    expect(channel.config_fingerprints).toEqual({ webhook_url: FINGERPRINT });
    expect((await api('get', `/${channel.id}`).expect(200)).body.data.config_fingerprints).toEqual({ webhook_url: FINGERPRINT });
    // The same value sent again keeps it; a new value without a fingerprint drops it.
    expect((await api('patch', `/${channel.id}`).send({ config: { webhook_url: SLACK_URL } }).expect(200)).body.data.config_fingerprints).toEqual({ webhook_url: FINGERPRINT });
    expect((await api('patch', `/${channel.id}`).send({ config: { webhook_url: `${SLACK_URL}-2` } }).expect(200)).body.data.config_fingerprints).toEqual({});
    const next = FINGERPRINT.replace('3q2N', '4r3O');
    expect((await api('patch', `/${channel.id}`).send({ config: { webhook_url: SLACK_URL }, config_fingerprints: { webhook_url: next } }).expect(200)).body.data.config_fingerprints).toEqual({ webhook_url: next });
  });

  it('refuses a field the type has not, and a value that is no fingerprint, naming each', async () => {
    const res = await api('post', '').send({ name: 'Ops', type: 'slack', config: { webhook_url: SLACK_URL }, config_fingerprints: { token: FINGERPRINT, webhook_url: 'has spaces' } });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details).sort()).toEqual(['config_fingerprints.token', 'config_fingerprints.webhook_url']);
    const long = await api('post', '').send({ name: 'Ops', type: 'slack', config: { webhook_url: SLACK_URL }, config_fingerprints: { webhook_url: 'x'.repeat(201) } });
    expectError(long, 400, 'VALIDATION_ERROR');
    expect((await api('get', '').expect(200)).body.data).toEqual([]);
  });
});

describe('DELETE /channels/{id}', () => {
  it('detaches the channel from its monitors and says how many', async () => {
    await aMonitor(h.ds, user);
    await aMonitor(h.ds, user);
    const channel = await create({ name: 'Email', type: 'email', config: { recipients: ['a@example.com'] } });
    await api('put', `/${channel.id}`).send({ apply_to_all_monitors: true });
    const res = await api('delete', `/${channel.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Channel deleted; detached from 2 monitors', data: { detached_monitors: 2 } });
    expectError(await api('get', `/${channel.id}`), 404, 'CHANNEL_NOT_FOUND');
    const [left]: { n: number }[] = await h.ds.query(`SELECT count(*)::int AS n FROM monitor_channels WHERE channel_id = $1`, [channel.id]);
    expect(left!.n).toBe(0);
  });
});

describe('another organization', () => {
  it('answers 404 for its channel, to every method, and changes nothing', async () => {
    const channel = await create({ name: 'Slack', type: 'slack', config: { webhook_url: SLACK_URL } });
    for (const method of ['get', 'patch', 'put', 'delete'] as const) {
      expectError(await api(method, `/${channel.id}`, otherAuth).send({ name: 'Taken' }), 404, 'CHANNEL_NOT_FOUND');
    }
    const list = await api('get', '', otherAuth);
    expect(list.body.data).toEqual([]);
    expect((await api('get', `/${channel.id}`)).body.data.name).toBe('Slack');
  });
});

describe('secrets at rest', () => {
  it('a dump of the whole database shows no secret of a channel of any type, nor a monitor’s own Slack URL or signing key', async () => {
    // Each secret a channel of each type carries, distinct enough to be found anywhere in a dump.
    const secrets = {
      slackPath: 'T0DUMP/B0DUMP/slack-dump-secret-1c7e',
      webhookKey: 'webhook-dump-signing-key-5b9a2f',
      discordToken: 'discord-dump-token-8e41d0',
      botToken: '987654321:AAHdumpTelegramBotToken-x9q2WzLk7',
      teamsSig: 'teams-dump-sig-44f0aa',
      routingKey: 'Rdump0123456789abcdefPDroutingKy',
      ntfyToken: 'tk_ntfydumptoken77c1',
      appToken: 'apushoverdumpapptoken000000001',
      userKey: 'upushoverdumpuserkey0000000001',
      gchatToken: 'gchat-dump-token-3da8',
      mattermostHook: 'mattermost-dump-hook-6b22',
      ownSlackPath: 'T0OWN/B0OWN/own-slack-dump-secret-90de',
    };
    const configs: Record<string, Record<string, unknown>> = {
      slack: { webhook_url: `https://hooks.slack.example/services/${secrets.slackPath}` },
      webhook: { url: 'https://receiver.example.test/in', secret: secrets.webhookKey },
      discord: { webhook_url: `https://discord.example/api/webhooks/1/${secrets.discordToken}` },
      telegram: { bot_token: secrets.botToken, chat_id: '-100777' },
      teams: { webhook_url: `https://teams.example/workflows/run?sig=${secrets.teamsSig}` },
      pagerduty: { routing_key: secrets.routingKey },
      ntfy: { topic: 'dump-topic-visible', token: secrets.ntfyToken },
      pushover: { app_token: secrets.appToken, user_key: secrets.userKey },
      google_chat: { webhook_url: `https://chat.example/v1/spaces/x/messages?key=k&token=${secrets.gchatToken}` },
      mattermost: { webhook_url: `https://mm.example/hooks/${secrets.mattermostHook}` },
    };
    expect(Object.keys(configs).sort()).toEqual(['discord', 'google_chat', 'mattermost', 'ntfy', 'pagerduty', 'pushover', 'slack', 'teams', 'telegram', 'webhook']);
    for (const [type, config] of Object.entries(configs)) await create({ name: `Dump ${type}`, type, config });
    const monitor = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'Dumped', url: 'http://127.0.0.1:9/', type: 'http' });
    expect(monitor.status).toBe(201);
    const own = await request(h.app)
      .put(`/api/v1/monitors/${monitor.body.data.id}/alerts`)
      .set('Authorization', auth)
      .send({ webhook_enabled: true, webhook_url: 'https://own-receiver.example.test/in', slack_enabled: true, slack_webhook_url: `https://hooks.slack.example/services/${secrets.ownSlackPath}` });
    expect(own.status).toBe(200);
    const ownSigningKey = own.body.data.webhook_secret as string;
    expect(ownSigningKey).toMatch(/^whsec_[0-9a-f]{64}$/);

    const dump = execFileSync('pg_dump', [process.env.DATABASE_URL!], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    // The plain fields are there, so the rows were dumped; each secret is only inside a sealed box.
    expect(dump).toContain('receiver.example.test');
    expect(dump).toContain('own-receiver.example.test');
    expect(dump).toContain('dump-topic-visible');
    expect(dump).toContain('-100777');
    expect(dump.match(/v1:[0-9a-f]{8}:/g)?.length).toBeGreaterThanOrEqual(Object.keys(configs).length + 2);
    const leaked = [...Object.values(secrets), ownSigningKey].filter((secret) => dump.includes(secret));
    expect(leaked).toEqual([]);
  });
});

describe('key rotation', () => {
  it('seals every box again under the new key while the old one is SECRETS_KEY_PREVIOUS, and the new key alone then opens them', async () => {
    const { auth: caller } = await aCaller(rotating.ds);
    const res = await request(rotating.app)
      .post('/api/v1/channels')
      .set('Authorization', caller)
      .send({ name: 'Slack', type: 'slack', config: { webhook_url: SLACK_URL } });
    expect(res.status).toBe(201);
    const sealedOf = async (): Promise<string> => {
      const [row]: { sealed_secrets: string }[] = await rotating.ds.query(`SELECT sealed_secrets FROM channels WHERE id = $1`, [res.body.data.id]);
      return row!.sealed_secrets;
    };
    const newKey = randomBytes(32);
    const newOnly = new SecretKeyring(newKey);
    const before = await sealedOf();
    expect(() => newOnly.open(before)).toThrow(SecretOpenError);

    expect(await resealChannelSecrets(rotating.ds, new SecretKeyring(newKey, OLD_KEY))).toBe(1);
    const after = await sealedOf();
    expect(after).not.toBe(before);
    expect(JSON.parse(newOnly.open(after))).toEqual({ webhook_url: SLACK_URL });
    expect(() => new SecretKeyring(OLD_KEY).open(after)).toThrow(SecretOpenError);
    // Done once: a second pass finds nothing left under the old key.
    expect(await resealChannelSecrets(rotating.ds, new SecretKeyring(newKey, OLD_KEY))).toBe(0);
  });
});

describe('monitors and their channels', () => {
  const newMonitor = async (): Promise<number> => {
    const res = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'Site', url: 'http://127.0.0.1:9/', type: 'http' });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };

  it('gives a new monitor the channels marked default, and only those', async () => {
    const byDefault = await create({ name: 'Default', type: 'email', config: { recipients: ['a@example.com'] }, is_default: true });
    await create({ name: 'Not default', type: 'email', config: { recipients: ['b@example.com'] } });
    await create({ name: 'Other organization', type: 'email', config: { recipients: ['c@example.com'] }, is_default: true }, otherAuth);
    const id = await newMonitor();
    const settings = await request(h.app).get(`/api/v1/monitors/${id}/alerts`).set('Authorization', auth);
    expect(settings.status).toBe(200);
    expect(settings.body.data.channel_ids).toEqual([byDefault.id]);
  });

  it('replaces the channels with channel_ids, and refuses another organization’s naming channel_ids', async () => {
    const a = await create({ name: 'A', type: 'email', config: { recipients: ['a@example.com'] } });
    const b = await create({ name: 'B', type: 'email', config: { recipients: ['b@example.com'] } });
    const foreign = await create({ name: 'Foreign', type: 'email', config: { recipients: ['f@example.com'] } }, otherAuth);
    const id = await newMonitor();
    const put = (channelIds: number[]) => request(h.app).put(`/api/v1/monitors/${id}/alerts`).set('Authorization', auth).send({ channel_ids: channelIds });
    const res = await put([b.id, a.id]);
    expect(res.status).toBe(200);
    expect(res.body.data.channel_ids).toEqual([a.id, b.id].sort((x, y) => x - y));
    const refused = await put([a.id, foreign.id]);
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(Object.keys(refused.body.error.details)).toEqual(['channel_ids']);
    expect((await put([])).body.data.channel_ids).toEqual([]);
    // The old fields still write the monitor's own settings beside the channels.
    const old = await request(h.app).put(`/api/v1/monitors/${id}/alerts`).set('Authorization', auth).send({ email_recipients: ['old@example.com'], channel_ids: [a.id] });
    expect(old.body.data).toMatchObject({ email_recipients: ['old@example.com'], channel_ids: [a.id] });
  });
});

describe('POST /channels/{id}/test', () => {
  let notifier: Notifier;
  let slack: FakeSlack;
  beforeAll(async () => {
    notifier = await startNotifier({ config: h.config, dataSource: h.ds, logger: createLogger({ level: 'silent', service: 'notifier-test' }) });
  });
  afterAll(() => notifier.close());
  beforeEach(async () => {
    slack = await startFakeSlack();
  });
  afterEach(() => slack.close());

  it('sends a test message through the channel now and answers its delivery, naming the channel and not its URL', async () => {
    const channel = await create({ name: 'Ops Slack', type: 'slack', config: { webhook_url: slack.webhookUrl } });
    const res = await api('post', `/${channel.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data.deliveries).toEqual([
      { channel: 'slack', recipient: `channel:${channel.id}`, status: 'sent', attempts: 1, last_attempt_at: expect.any(String), sent_at: expect.any(String), error: null },
    ]);
    expect(slack.messages.map((m) => m.text)).toEqual(['Test alert through the channel Ops Slack']);
    expect(res.text).not.toContain(slack.webhookUrl);
  });

  it('says an email channel’s test was logged, not sent, when no mail transport is configured', async () => {
    const channel = await create({ name: 'Team', type: 'email', config: { recipients: ['team@example.com'] } });
    const res = await api('post', `/${channel.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data.deliveries).toEqual([expect.objectContaining({ channel: 'email', recipient: 'team@example.com', status: 'logged', attempts: 1, error: null })]);
  });

  it('sends a test through a service channel, as the service expects it', async () => {
    const discord = await startFakeDiscord();
    try {
      const channel = await create({ name: 'Ops Discord', type: 'discord', config: { webhook_url: discord.url } });
      const res = await api('post', `/${channel.id}/test`);
      expect(res.status).toBe(200);
      expect(res.body.data.deliveries).toEqual([expect.objectContaining({ channel: 'discord', recipient: `channel:${channel.id}`, status: 'sent', attempts: 1, error: null })]);
      expect(discord.refused).toEqual([]);
      expect(JSON.stringify(discord.received)).toContain('[TEST] Ops Discord');
      expect(res.text).not.toContain(discord.url);
    } finally {
      await discord.close();
    }
  });

  it('answers a failed send with its error', async () => {
    slack.setMode({ kind: 'error' });
    const channel = await create({ name: 'Broken Slack', type: 'slack', config: { webhook_url: slack.webhookUrl } });
    const res = await api('post', `/${channel.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data.deliveries).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, error: expect.stringMatching(/slack answered 5\d\d/i) })]);
  });

  it('is rate limited per channel, and another organization’s channel is 404', async () => {
    const channel = await create({ name: 'Slack', type: 'slack', config: { webhook_url: slack.webhookUrl } });
    expectError(await api('post', `/${channel.id}/test`, otherAuth), 404, 'CHANNEL_NOT_FOUND');
    for (let i = 0; i < 5; i += 1) expect((await api('post', `/${channel.id}/test`)).status).toBe(200);
    const limited = await api('post', `/${channel.id}/test`);
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
