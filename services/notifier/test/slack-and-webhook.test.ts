import { createServiceMetrics } from '@uptime/observability';
import { allowPublicAddressesOnly } from '@uptime/probe';
import { metricValue, startFakeSlack, startFakeWebhookReceiver, type FakeSlack, type FakeWebhookReceiver } from '@uptime/testing';
import { aMonitorThatWentDown, deliveriesOf, theMonitorRecovers, type DownScenario } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

jest.setTimeout(60_000);

const SECRET = 'whsec-test-0123456789abcdef';

describe('Slack and webhook deliveries', () => {
  const bed = useTestbed();
  let slack: FakeSlack;
  let hook: FakeWebhookReceiver;
  beforeEach(async () => {
    slack = await startFakeSlack();
    hook = await startFakeWebhookReceiver(SECRET);
  });
  afterEach(async () => {
    await slack.close();
    await hook.close();
  });

  const downWithChannels = (monitor: Record<string, unknown> = {}): Promise<DownScenario> =>
    aMonitorThatWentDown(bed.ds, {
      owner: { email: 'owner@example.test' },
      monitor: {
        slackEnabled: true,
        slackWebhookUrl: slack.webhookUrl,
        webhookEnabled: true,
        webhookUrl: hook.url,
        webhookSecret: SECRET,
        ...monitor,
      },
    });
  const byChannel = async (down: DownScenario, channel: string) =>
    (await deliveriesOf(bed.ds, down.incident.id)).filter((d) => d.channel === channel);

  it('sends exactly one message per channel per notification with two notifiers and every event delivered twice', async () => {
    const down = await downWithChannels();
    const [first, second] = [bed.processor(), bed.processor()];
    await Promise.all([first(down.offline), second(down.offline), first(down.offline), second(down.offline)]);
    const online = await theMonitorRecovers(bed.ds, down);
    await Promise.all([first(online), second(online), second(down.offline), first(online)]);

    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down', '[UP] Shop is back up']);
    expect(slack.messages).toHaveLength(2);
    const link = `${bed.config.http.appUrl}/monitors/${down.monitor.id}`;
    expect(slack.messages[0].text).toContain('Shop is down: HTTP 503 Service Unavailable');
    expect(slack.messages[0].text).toContain(link);
    expect(JSON.stringify(slack.messages[0].blocks)).toContain('https://shop.example.test/health');
    expect(JSON.stringify(slack.messages[0].blocks)).toContain(`<${link}|Open the monitor>`);
    expect(JSON.stringify(slack.messages[0].blocks)).toContain('*Shop* is down');
    expect(JSON.stringify(slack.messages[0].blocks)).toContain('*Error:* HTTP 503 Service Unavailable');
    expect(slack.messages[1].text).toContain('Shop is back up after 3m 12s');
    expect(JSON.stringify(slack.messages[1].blocks)).toContain('*Shop* is back up');
    expect(JSON.stringify(slack.messages[1].blocks)).toContain('*Downtime:* 3m 12s');
    expect(JSON.stringify(slack.messages[1].blocks)).toContain(`<${link}|Open the monitor>`);

    expect(hook.rejected).toEqual([]);
    expect(hook.received.map((r) => r.event)).toEqual(['downtime', 'recovery']);
    expect(new Set(hook.received.map((r) => r.deliveryId)).size).toBe(2);
    expect(hook.received[0].body).toEqual({
      event: 'downtime',
      notification: expect.objectContaining({ monitor_id: down.monitor.id, type: 'downtime', monitor_name: 'Shop', started_at: '2026-11-22T10:00:00.000Z' }),
      monitor: { id: down.monitor.id, name: 'Shop', url: 'https://shop.example.test/health' },
    });
    const deliveries = await deliveriesOf(bed.ds, down.incident.id);
    expect(deliveries.map((d) => [d.type, d.channel, d.status, d.attempts])).toEqual([
      ['downtime', 'email', 'sent', 1],
      ['downtime', 'slack', 'sent', 1],
      ['downtime', 'webhook', 'sent', 1],
      ['recovery', 'email', 'sent', 1],
      ['recovery', 'slack', 'sent', 1],
      ['recovery', 'webhook', 'sent', 1],
    ]);
  });

  it('retries after a 5xx, keeping the same X-Uptime-Delivery, records the last error until then, and counts it per channel', async () => {
    const down = await downWithChannels({ slackEnabled: false, emailEnabled: false });
    hook.setMode({ kind: 'error' });
    const metrics = createServiceMetrics();

    await expect(bed.processor(undefined, { metrics })(down.offline)).rejects.toThrow(/webhook to .* will retry/);
    expect(await byChannel(down, 'webhook')).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, last_error: 'webhook answered 500: error' }),
    ]);
    hook.setMode({ kind: 'ok' });
    const before = Date.now();
    await bed.processor(undefined, { metrics })(down.offline);
    const after = Date.now();

    expect(hook.server.requests).toHaveLength(2);
    expect(hook.server.requests[0].headers['x-uptime-delivery']).toBe(hook.server.requests[1].headers['x-uptime-delivery']);
    expect(await byChannel(down, 'webhook')).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, last_error: null })]);
    const text = await metrics.render();
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'webhook', outcome: 'retry' })).toBe(1);
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'webhook', outcome: 'sent' })).toBe(1);
    expect(metricValue(text, 'notification_delivery_attempts_total', { channel: 'webhook' })).toBe(2);
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'email' })).toBeUndefined();
    // Latency runs from the status change (the incident's start), not from the first attempt.
    const startedAt = down.incident.startedAt.getTime();
    expect(metricValue(text, 'notification_delivery_latency_seconds_count', { channel: 'webhook' })).toBe(1);
    const latency = metricValue(text, 'notification_delivery_latency_seconds_sum', { channel: 'webhook' })!;
    expect(latency).toBeGreaterThanOrEqual((before - startedAt) / 1000);
    expect(latency).toBeLessThanOrEqual((after - startedAt) / 1000);
  });

  it("honours a 429's Retry-After: nothing goes to that Slack host before it", async () => {
    const down = await downWithChannels({ webhookEnabled: false });
    slack.setMode({ kind: 'rate-limited', retryAfterSeconds: 2 });

    await expect(bed.processor()(down.offline)).rejects.toThrow(/slack to .* will retry/);
    const rateLimitedAt = slack.server.requests[0].receivedAt;
    slack.setMode({ kind: 'ok' });
    await expect(bed.processor()(down.offline)).rejects.toThrow(/paused/);
    expect(slack.server.requests).toHaveLength(1);

    const [pause] = await bed.ds.query(`SELECT paused_until FROM provider_pauses WHERE provider LIKE 'slack:%'`);
    await new Promise((resolve) => setTimeout(resolve, pause.paused_until.getTime() - Date.now() + 50));
    await bed.processor()(down.offline);

    expect(slack.server.requests).toHaveLength(2);
    expect(slack.server.requests[1].receivedAt - rateLimitedAt).toBeGreaterThanOrEqual(1000);
    expect(slack.messages).toHaveLength(1);
  });

  it('fails at once on a 4xx other than 429, with the answer as the error', async () => {
    const down = await downWithChannels({ slackEnabled: false });
    hook.setMode({ kind: 'gone' });

    await expect(bed.processor()(down.offline)).resolves.toBeUndefined();

    expect(await byChannel(down, 'webhook')).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'webhook answered 410: gone' })]);
  });

  it('follows no redirect: a 3xx fails the delivery at once, and nothing is sent where it points', async () => {
    const elsewhere = await startFakeWebhookReceiver(SECRET);
    try {
      const down = await downWithChannels({ slackEnabled: false });
      hook.server.respond((_req, res) => {
        res.writeHead(307, { location: elsewhere.url });
        res.end();
      });

      await expect(bed.processor()(down.offline)).resolves.toBeUndefined();

      expect(elsewhere.server.requests).toEqual([]);
      expect(await byChannel(down, 'webhook')).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'webhook answered 307' })]);
    } finally {
      await elsewhere.close();
    }
  });

  it('gives up after the tenth attempt and keeps the last error', async () => {
    const down = await downWithChannels({ webhookEnabled: false });
    slack.setMode({ kind: 'error' });
    const metrics = createServiceMetrics();
    await expect(bed.processor(undefined, { metrics })(down.offline)).rejects.toThrow(/will retry/);
    // Eight more failed attempts later (the sweeper would have made them over ~17 minutes).
    await bed.ds.query(`UPDATE notification_deliveries SET attempts = 9 WHERE channel = 'slack'`);

    await expect(bed.processor(undefined, { metrics })(down.offline)).resolves.toBeUndefined();

    expect(await byChannel(down, 'slack')).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 10, last_error: 'Slack answered 500: internal_error' }),
    ]);
    const text = await metrics.render();
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'slack', outcome: 'retry' })).toBe(1);
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'slack', outcome: 'failed' })).toBe(1);
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'email', outcome: 'sent' })).toBe(1);
  });

  it('gives up a delivery a day old at its next failure, whatever its attempts, and keeps the last error', async () => {
    const down = await downWithChannels({ webhookEnabled: false });
    slack.setMode({ kind: 'error' });
    await expect(bed.processor()(down.offline)).rejects.toThrow(/will retry/);
    // A day later: a receiver that kept asking to wait (Retry-After) used up the time, not the attempts.
    await bed.ds.query(`UPDATE notification_deliveries SET created_at = created_at - interval '24 hours' WHERE channel = 'slack'`);

    await expect(bed.processor()(down.offline)).resolves.toBeUndefined();

    expect(await byChannel(down, 'slack')).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 2, last_error: 'Slack answered 500: internal_error' }),
    ]);
  });

  it('records a receiver that hangs as ambiguous after 10 s and sends it again later, marked possible_duplicate', async () => {
    const down = await downWithChannels({ slackEnabled: false });
    hook.setMode({ kind: 'hang' });

    await expect(bed.processor()(down.offline)).rejects.toThrow(/will retry/);
    expect(await byChannel(down, 'webhook')).toEqual([
      expect.objectContaining({
        status: 'ambiguous',
        possible_duplicate: true,
        last_error: expect.stringMatching(/no answer from 127\.0\.0\.1:\d+ within 10000 ms after the request was sent/),
      }),
    ]);
    hook.setMode({ kind: 'ok' });
    await bed.processor()(down.offline);

    expect(hook.received).toHaveLength(1);
    expect(await byChannel(down, 'webhook')).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, possible_duplicate: true })]);
  });

  it.each([['127.0.0.1'], ['localhost']])('refuses to send to a blocked address (%s) at send time', async (host) => {
    const down = await downWithChannels({ slackEnabled: false, webhookUrl: hook.url.replace('127.0.0.1', host) });

    await expect(bed.processor(undefined, { addressPolicy: allowPublicAddressesOnly })(down.offline)).resolves.toBeUndefined();

    expect(hook.server.requests).toEqual([]);
    expect(await byChannel(down, 'webhook')).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1, last_error: expect.stringMatching(/127\.0\.0\.1.*is not allowed/) }),
    ]);
  });
});
