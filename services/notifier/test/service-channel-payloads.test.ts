import { allowAnyAddress, type ServiceChannelConfig } from '@uptime/probe';
import {
  FAKE_NTFY_TOKEN,
  FAKE_PAGERDUTY_ROUTING_KEY,
  FAKE_PUSHOVER_APP_TOKEN,
  FAKE_PUSHOVER_USER_KEY,
  FAKE_TELEGRAM_CHAT,
  FAKE_TELEGRAM_TOKEN,
  parseTelegramHtml,
  startFakeDiscord,
  startFakeGoogleChat,
  startFakeMattermost,
  startFakeNtfy,
  startFakePagerDuty,
  startFakePushover,
  startFakeTeams,
  startFakeTelegram,
  type FakeService,
} from '@uptime/testing';
import { postJson } from '../src/outbound/post-json';
import { sendToServiceChannel } from '../src/channels/service-channels';
import { APP_URL, NOTICES, serviceDepsFor } from './support/channel-notices';

const MONITOR_NAME = 'Shop <checkout> & "cart"';
const LINK = `${APP_URL}/monitors/41`;

const fakes: Array<FakeService<unknown>> = [];
async function started<F extends FakeService<unknown>>(fake: Promise<F>): Promise<F> {
  const f = await fake;
  fakes.push(f);
  return f;
}
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const send = (channel: ServiceChannelConfig, event: keyof typeof NOTICES, url: string): Promise<void> => sendToServiceChannel(channel, NOTICES[event], serviceDepsFor(url));

describe('Telegram', () => {
  it('escapes the monitor name and error for HTML parse mode, so they are shown exactly as written', async () => {
    const telegram = await started(startFakeTelegram());
    await send({ type: 'telegram', config: { bot_token: FAKE_TELEGRAM_TOKEN, chat_id: FAKE_TELEGRAM_CHAT } }, 'down', telegram.url);

    const [sent] = telegram.received;
    expect(sent?.text).toContain(`[DOWN] ${MONITOR_NAME} is down`);
    expect(sent?.text).toContain('Error: unexpected HTTP status 503 <Service Unavailable>');
    expect(sent?.html).toContain('<b>[DOWN] Shop &lt;checkout&gt; &amp; &quot;cart&quot; is down</b>');
    expect(sent?.html).toContain(`<a href="${LINK}">Open the monitor</a>`);
    expect(sent?.body).toMatchObject({ parse_mode: 'HTML', chat_id: FAKE_TELEGRAM_CHAT });
  });

  it("has a fake that refuses what Telegram refuses: raw markup, a bare '&', an unclosed tag", async () => {
    expect(parseTelegramHtml('<script>x</script>')).toEqual({ error: expect.stringMatching(/Unsupported start tag/) });
    expect(parseTelegramHtml('a & b')).toEqual({ error: expect.stringMatching(/Unsupported entity/) });
    expect(parseTelegramHtml('<b>x')).toEqual({ error: expect.stringMatching(/end tag/) });
    const telegram = await started(startFakeTelegram());
    const body = JSON.stringify({ chat_id: FAKE_TELEGRAM_CHAT, text: `<b>${MONITOR_NAME}</b>`, parse_mode: 'HTML' });
    const answer = await postJson({ url: `${telegram.url}/bot${FAKE_TELEGRAM_TOKEN}/sendMessage`, body, addressPolicy: allowAnyAddress });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/can't parse entities/);
  });
});

describe('PagerDuty', () => {
  const channel: ServiceChannelConfig = { type: 'pagerduty', config: { routing_key: FAKE_PAGERDUTY_ROUTING_KEY, severity: 'error' } };

  it('triggers on down, acknowledges, and resolves on recovery, all with the one dedup_key of the incident', async () => {
    const pd = await started(startFakePagerDuty());
    await send(channel, 'down', pd.url);
    expect(pd.incidents.get('uptime-alert-77')).toBe('triggered');
    await send(channel, 'acknowledged', pd.url);
    expect(pd.incidents.get('uptime-alert-77')).toBe('acknowledged');
    await send(channel, 'up', pd.url);

    expect(pd.received.map((e) => [e.action, e.dedupKey])).toEqual([
      ['trigger', 'uptime-alert-77'],
      ['acknowledge', 'uptime-alert-77'],
      ['resolve', 'uptime-alert-77'],
    ]);
    expect(pd.incidents).toEqual(new Map([['uptime-alert-77', 'resolved']]));
    expect(pd.received[0]?.body.payload).toMatchObject({
      summary: `[DOWN] ${MONITOR_NAME} is down`,
      source: 'https://shop.example.com/health?a=1&b=2',
      severity: 'error',
      custom_details: { Error: 'unexpected HTTP status 503 <Service Unavailable>' },
    });
    expect(pd.received[2]?.body.payload).toBeUndefined();
  });

  it('sends a duplicated down as the same trigger, which PagerDuty folds into the one incident', async () => {
    const pd = await started(startFakePagerDuty());
    await send(channel, 'down', pd.url);
    await send(channel, 'down', pd.url);
    expect(pd.incidents.size).toBe(1);
  });

  it('pages slow alerts at warning at most and a test at info, each under its own key', async () => {
    const pd = await started(startFakePagerDuty());
    await send({ type: 'pagerduty', config: { routing_key: FAKE_PAGERDUTY_ROUTING_KEY, severity: 'critical' } }, 'slow', pd.url);
    await send(channel, 'test', pd.url);
    expect(pd.received.map((e) => [e.dedupKey, (e.body.payload as { severity: string }).severity])).toEqual([
      ['uptime-alert-78', 'warning'],
      ['uptime-test-channel-5', 'info'],
    ]);
  });
});

describe('Pushover', () => {
  const config = { app_token: FAKE_PUSHOVER_APP_TOKEN, user_key: FAKE_PUSHOVER_USER_KEY, device: 'phone', priority: 2, retry: 90, expire: 1800 };

  it('sends a down at emergency priority with its retry and expire, and a recovery at normal priority without them', async () => {
    const pushover = await started(startFakePushover());
    await send({ type: 'pushover', config }, 'down', pushover.url);
    await send({ type: 'pushover', config }, 'up', pushover.url);
    const [down, up] = pushover.received;
    expect(down).toMatchObject({ priority: 2, retry: 90, expire: 1800, device: 'phone', url: LINK, title: `[DOWN] ${MONITOR_NAME} is down` });
    expect(up).toMatchObject({ priority: 0 });
    expect(up).not.toHaveProperty('retry');
    expect(up).not.toHaveProperty('expire');
  });

  it('has a fake that refuses an emergency without retry, as Pushover does', async () => {
    const pushover = await started(startFakePushover());
    const body = JSON.stringify({ token: FAKE_PUSHOVER_APP_TOKEN, user: FAKE_PUSHOVER_USER_KEY, message: 'x', priority: 2, expire: 600 });
    const answer = await postJson({ url: pushover.url, body, addressPolicy: allowAnyAddress });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/retry is invalid/);
  });
});

describe('the chat services', () => {
  it('Discord: one embed coloured by event, linking to the monitor, that pings nobody', async () => {
    const discord = await started(startFakeDiscord());
    await send({ type: 'discord', config: { webhook_url: discord.url } }, 'down', discord.url);
    await send({ type: 'discord', config: { webhook_url: discord.url } }, 'up', discord.url);
    const [down, up] = discord.received as Array<{ embeds: Array<Record<string, unknown>>; allowed_mentions: unknown }>;
    expect(down?.embeds[0]).toMatchObject({ color: 0xd9342b, url: LINK, title: `[DOWN] ${MONITOR_NAME} is down` });
    expect(down?.embeds[0]?.fields).toContainEqual({ name: 'Error', value: 'unexpected HTTP status 503 <Service Unavailable>', inline: true });
    expect(up?.embeds[0]).toMatchObject({ color: 0x2eb67d });
    expect(up?.embeds[0]?.fields).toContainEqual({ name: 'Downtime', value: '12m 30s', inline: true });
    expect(down?.allowed_mentions).toEqual({ parse: [] });
  });

  it('Teams: an Adaptive Card titled in the colour of the event, with its facts and a button to the monitor', async () => {
    const teams = await started(startFakeTeams());
    await send({ type: 'teams', config: { webhook_url: teams.url } }, 'down', teams.url);
    const card = (teams.received[0] as { attachments: Array<{ content: { body: Array<Record<string, unknown>>; actions: unknown[] } }> }).attachments[0]?.content;
    expect(card?.body[0]).toMatchObject({ type: 'TextBlock', color: 'Attention', weight: 'Bolder' });
    expect(card?.body[2]).toMatchObject({ type: 'FactSet', facts: expect.arrayContaining([{ title: 'Status code', value: '503' }]) });
    expect(card?.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the monitor', url: LINK }]);
  });

  it('Google Chat: a cardsV2 card with the headline escaped and a button to the monitor', async () => {
    const chat = await started(startFakeGoogleChat());
    await send({ type: 'google_chat', config: { webhook_url: chat.url } }, 'certificate', chat.url);
    const message = chat.received[0] as { text: string; cardsV2: Array<{ card: { header: { title: string }; sections: Array<{ widgets: unknown[] }> } }> };
    expect(message.cardsV2[0]?.card.header.title).toBe(`[CERT] ${MONITOR_NAME}: certificate expires in 7 days`);
    expect(JSON.stringify(message.cardsV2[0]?.card.sections[0]?.widgets[0])).toContain('Shop &lt;checkout&gt; &amp; \\"cart\\"');
    expect(message.cardsV2[0]?.card.sections[0]?.widgets.at(-1)).toEqual({ buttonList: { buttons: [{ text: 'Open the monitor', onClick: { openLink: { url: LINK } } }] } });
  });

  it('Mattermost: an attachment with the channel and username overrides and the colour of the event', async () => {
    const mattermost = await started(startFakeMattermost());
    await send({ type: 'mattermost', config: { webhook_url: mattermost.url, channel: 'ops', username: 'Uptime bot' } }, 'slow', mattermost.url);
    expect(mattermost.received[0]).toMatchObject({
      channel: 'ops',
      username: 'Uptime bot',
      attachments: [{ color: '#f2c744', title_link: LINK, fields: expect.arrayContaining([{ short: true, title: 'Threshold', value: '2000 ms' }]) }],
    });
  });

  it('ntfy: the access token as Bearer, the configured priority for a down and at most 3 for a recovery, a click to the monitor', async () => {
    const ntfy = await started(startFakeNtfy());
    const channel: ServiceChannelConfig = { type: 'ntfy', config: { server_url: ntfy.url, topic: 'ops', token: FAKE_NTFY_TOKEN, priority: 5 } };
    await send(channel, 'down', ntfy.url);
    await send(channel, 'up', ntfy.url);
    expect(ntfy.received).toMatchObject([
      { topic: 'ops', priority: 5, tags: ['rotating_light', 'uptime'], click: LINK, title: `[DOWN] ${MONITOR_NAME} is down` },
      { topic: 'ops', priority: 3, tags: ['white_check_mark', 'uptime'] },
    ]);
    expect(ntfy.server.requests[0]?.headers.authorization).toBe(`Bearer ${FAKE_NTFY_TOKEN}`);
  });

  it('ntfy: an open topic is sent without Authorization', async () => {
    const ntfy = await started(startFakeNtfy(null));
    await send({ type: 'ntfy', config: { server_url: `${ntfy.url}/`, topic: 'open', token: null, priority: 4 } }, 'test', ntfy.url);
    expect(ntfy.received).toHaveLength(1);
    expect(ntfy.server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('limits', () => {
  it("keeps a Discord embed within Discord's 6,000 characters whatever the error's length", async () => {
    const discord = await started(startFakeDiscord());
    const huge = { ...NOTICES.down, headline: 'h'.repeat(10_000), facts: Array.from({ length: 30 }, (_, i): [string, string] => [`Fact ${i}`, 'v'.repeat(5000)]) };
    await sendToServiceChannel({ type: 'discord', config: { webhook_url: discord.url } }, huge, serviceDepsFor(discord.url));
    expect(discord.refused).toEqual([]);
    expect(discord.received).toHaveLength(1);
  });

  it('keeps a Telegram message within 4,096 characters once parsed, and still valid HTML', async () => {
    const telegram = await started(startFakeTelegram());
    const huge = { ...NOTICES.down, headline: '<&>'.repeat(2000), facts: Array.from({ length: 12 }, (_, i): [string, string] => [`Fact ${i}`, '&'.repeat(3000)]) };
    await sendToServiceChannel({ type: 'telegram', config: { bot_token: FAKE_TELEGRAM_TOKEN, chat_id: FAKE_TELEGRAM_CHAT } }, huge, serviceDepsFor(telegram.url));
    expect(telegram.refused.map((r) => r.reason)).toEqual([]);
    expect(telegram.received[0]?.text.length).toBeLessThanOrEqual(4096);
  });
});
