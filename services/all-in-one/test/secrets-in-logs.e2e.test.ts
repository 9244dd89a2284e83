import type { DataSource } from '@uptime/db';
import {
  aCaller,
  aMonitor,
  FAKE_NTFY_TOKEN,
  FAKE_PAGERDUTY_ROUTING_KEY,
  FAKE_PUSHOVER_APP_TOKEN,
  FAKE_PUSHOVER_USER_KEY,
  FAKE_TELEGRAM_TOKEN,
  fakeChannelConfigs,
  startEveryFakeChannel,
  startFakeSlack,
  startFakeWebhookReceiver,
  waitFor,
  type EveryFakeChannel,
  type FakeSlack,
  type FakeWebhookReceiver,
} from '@uptime/testing';
import { queueDowntime } from './support/downtime';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(120_000);

/**
 * Secrets never in a log line (docs/channels.md, "Secrets at rest"): every JSON line the api and
 * the notifier write, at the most verbose level, while channels of every type that carries a
 * secret are tested, deliver a real downtime, and fail (a 500, a 429), holds none of their
 * tokens, keys or secret URLs.
 */
const SIGNING_KEY = 'whsec_log-test-signing-key-4f1d9c2ab7';

interface Delivery {
  channel: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

describe('secrets in the logs of the api and the notifier', () => {
  const lines: string[] = [];
  let stack: InProcessStack;
  let ds: DataSource;
  let fakes: EveryFakeChannel;
  let slack: FakeSlack;
  let hook: FakeWebhookReceiver;

  beforeAll(async () => {
    [fakes, slack, hook] = await Promise.all([startEveryFakeChannel(), startFakeSlack(), startFakeWebhookReceiver(SIGNING_KEY)]);
    stack = await startInProcessStack({
      checkWorker: false,
      env: { LOG_LEVEL: 'trace', TELEGRAM_API_URL: fakes.telegram.url, PAGERDUTY_EVENTS_URL: fakes.pagerduty.url, PUSHOVER_API_URL: fakes.pushover.url },
      logDestination: { write: (line) => void lines.push(line) },
    });
    ds = stack.ds;
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([...Object.values(fakes ?? {}).map((f) => f.close()), slack?.close(), hook?.close()]);
  });

  /** Every secret value the channels hold, and the part of each secret URL that is its credential. */
  function secretsOf(): Record<string, string> {
    const url = (raw: string) => new URL(raw);
    const discord = url(fakes.discord.url);
    const teams = url(fakes.teams.url);
    const chat = url(fakes.google_chat.url);
    const mattermost = url(fakes.mattermost.url);
    const slackUrl = url(slack.webhookUrl);
    return {
      'telegram bot_token': FAKE_TELEGRAM_TOKEN,
      'telegram bot_token after the bot id': FAKE_TELEGRAM_TOKEN.split(':')[1]!,
      'pagerduty routing_key': FAKE_PAGERDUTY_ROUTING_KEY,
      'pushover app_token': FAKE_PUSHOVER_APP_TOKEN,
      'pushover user_key': FAKE_PUSHOVER_USER_KEY,
      'ntfy token': FAKE_NTFY_TOKEN,
      'webhook signing secret': SIGNING_KEY,
      'slack webhook_url': slack.webhookUrl,
      'slack webhook path': slackUrl.pathname,
      'discord webhook_url': fakes.discord.url,
      'discord webhook token': discord.pathname.split('/').pop()!,
      'teams webhook_url': fakes.teams.url,
      'teams sig': teams.searchParams.get('sig')!,
      'google_chat webhook_url': fakes.google_chat.url,
      'google_chat key': chat.searchParams.get('key')!,
      'google_chat token': chat.searchParams.get('token')!,
      'mattermost webhook_url': fakes.mattermost.url,
      'mattermost hook id': mattermost.pathname.split('/').pop()!,
    };
  }

  async function call(auth: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: { data: Record<string, unknown> } }> {
    const res = await fetch(`${stack.api.url}/api/v1${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  }

  const deliveriesOf = async (monitorId: number): Promise<Delivery[]> =>
    ds.query(
      `SELECT d.channel, d.status, d.attempts, d.last_error FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
        WHERE n.monitor_id = $1 ORDER BY d.id`,
      [monitorId],
    );

  function setEveryFake(mode: { kind: 'ok' } | { kind: 'error' } | { kind: 'rate-limited'; retryAfterSeconds: number }): void {
    for (const fake of Object.values(fakes)) fake.setMode(mode);
    slack.setMode(mode);
    hook.setMode(mode);
  }

  it('holds no token, key or secret URL of any channel type through test sends, a delivered downtime, and sends answered 500 and 429', async () => {
    const { auth, user } = await aCaller(ds);
    const configs: Record<string, Record<string, unknown>> = {
      ...fakeChannelConfigs(fakes),
      slack: { webhook_url: slack.webhookUrl },
      webhook: { url: hook.url, secret: SIGNING_KEY },
    };
    const ids: number[] = [];
    for (const [type, config] of Object.entries(configs)) {
      const created = await call(auth, 'POST', '/channels', { name: `Logged ${type}`, type, config });
      expect([type, created.status]).toEqual([type, 201]);
      ids.push(created.body.data.id as number);
    }
    const testEach = async (): Promise<Array<{ status: string; error: string | null }>> => {
      const results: Array<{ status: string; error: string | null }> = [];
      for (const id of ids) {
        const tested = await call(auth, 'POST', `/channels/${id}/test`);
        expect(tested.status).toBe(200);
        results.push(...(tested.body.data.deliveries as Array<{ status: string; error: string | null }>));
      }
      return results;
    };
    const aMonitorOnEveryChannel = async (name: string): Promise<number> => {
      const monitor = await aMonitor(ds, user, { name, url: 'https://shop.example.test/', emailEnabled: false });
      expect((await call(auth, 'PUT', `/monitors/${monitor.id}/alerts`, { channel_ids: ids })).status).toBe(200);
      return monitor.id;
    };

    // Each service accepts: a test send through each channel, then a downtime delivered to all.
    expect((await testEach()).map((d) => d.status)).toEqual(ids.map(() => 'sent'));
    const delivered = await aMonitorOnEveryChannel('Delivered');
    await queueDowntime(ds, stack.config, delivered);
    await waitFor(async () => (await deliveriesOf(delivered)).filter((d) => d.status === 'sent').length === ids.length, { what: 'the downtime sent on every channel' });

    // Each service answers 500, then 429 with Retry-After: a test send through each channel, then a
    // downtime's first attempts on all. The tests go first: a 429 pauses its service, which would
    // leave the next sends to it pending rather than attempted.
    setEveryFake({ kind: 'error' });
    expect((await testEach()).map((d) => [d.status, /500/.test(d.error ?? '')])).toEqual(ids.map(() => ['failed', true]));
    const failing = await aMonitorOnEveryChannel('Failing');
    await queueDowntime(ds, stack.config, failing);
    await waitFor(async () => (await deliveriesOf(failing)).filter((d) => d.attempts >= 1 && /500/.test(d.last_error ?? '')).length === ids.length, {
      what: 'the downtime attempted on every channel and answered 500',
    });

    // Its retries go out once the services accept again: none is left to meet the 429s below.
    setEveryFake({ kind: 'ok' });
    await ds.query(`DELETE FROM provider_pauses`);
    await waitFor(async () => (await deliveriesOf(failing)).filter((d) => d.status === 'sent').length === ids.length, { timeoutMs: 60_000, what: 'the downtime retried and sent' });

    setEveryFake({ kind: 'rate-limited', retryAfterSeconds: 60 });
    await ds.query(`DELETE FROM provider_pauses`);
    expect((await testEach()).map((d) => [d.status, /429/.test(d.error ?? '')])).toEqual(ids.map(() => ['failed', true]));
    await ds.query(`DELETE FROM provider_pauses`);
    const limited = await aMonitorOnEveryChannel('Limited');
    await queueDowntime(ds, stack.config, limited);
    await waitFor(async () => (await deliveriesOf(limited)).filter((d) => d.attempts >= 1 && /429/.test(d.last_error ?? '')).length === ids.length, {
      what: 'the downtime attempted on every channel and answered 429',
    });

    // The logs were captured from both components, the failures among them.
    const logs = lines.map((line) => JSON.parse(line) as { component?: string; level: number; msg?: string });
    expect(logs.some((l) => l.component === 'api' && l.msg === 'request completed')).toBe(true);
    expect(logs.filter((l) => l.component === 'notifier' && l.msg === 'channel test sent')).toHaveLength(ids.length * 3);
    for (const type of Object.keys(configs)) {
      expect([type, logs.filter((l) => l.component === 'notifier' && l.msg === `${type} delivery sent`).length]).toEqual([type, 2]);
      expect([type, logs.some((l) => l.component === 'notifier' && l.level === 40 && l.msg === `${type} delivery failed; will retry`)]).toEqual([type, true]);
    }
    expect(logs.some((l) => l.component === 'notifier' && l.msg === 'provider asked to back off; sending nothing to it until then')).toBe(true);

    const leaks = Object.entries(secretsOf()).flatMap(([name, secret]) => lines.filter((line) => line.includes(secret)).map((line) => ({ name, line })));
    expect(leaks).toEqual([]);
  });
});
