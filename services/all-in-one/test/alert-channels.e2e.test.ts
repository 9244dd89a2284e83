import type { RunningApi } from '@uptime/api';
import { successOf } from '@uptime/client';
import type { DataSource } from '@uptime/db';
import { aCaller, aMonitor, startFakeSlack, startFakeWebhookReceiver, waitFor, type FakeSendGrid, type FakeSlack, type FakeWebhookReceiver } from '@uptime/testing';
import { contractCheckedClient } from './api-client';
import { queueDowntime } from './support/downtime';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(120_000);

/** `POST /monitors/{id}/alerts/test` end to end: api + notifier in one process, every channel a local fake. */
describe('test alerts on every enabled channel, api + notifier', () => {
  let stack: InProcessStack;
  let ds: DataSource;
  let sendgrid: FakeSendGrid;
  let slack: FakeSlack;
  let hook: FakeWebhookReceiver;
  let api: RunningApi;

  beforeAll(async () => {
    [slack, hook] = await Promise.all([startFakeSlack(), startFakeWebhookReceiver()]);
    stack = await startInProcessStack({ checkWorker: false, env: { APP_URL: 'https://uptime.example.test' } });
    ({ ds, sendgrid, api } = stack);
  });

  afterAll(async () => {
    await stack?.close();
    await Promise.all([slack?.close(), hook?.close()]);
  });

  it('sends one signed test on each channel, answers the deliveries, and limits tests to 5 a minute per monitor', async () => {
    const { auth, user } = await aCaller(ds, { email: 'owner@example.test' });
    const monitor = await aMonitor(ds, user, { name: 'Shop', url: 'https://shop.example.test/' });
    const client = await contractCheckedClient(api.url, auth);
    const path = { path: { id: monitor.id } };

    const saved = successOf(
      await client.put('/api/v1/monitors/{id}/alerts', {
        ...path,
        body: { slack_enabled: true, slack_webhook_url: slack.webhookUrl, webhook_enabled: true, webhook_url: hook.url },
      }),
    ).data;
    hook.secret = saved.webhook_secret ?? '';

    const tested = successOf(await client.post('/api/v1/monitors/{id}/alerts/test', path)).data;

    expect(tested.deliveries).toEqual([
      expect.objectContaining({ channel: 'email', recipient: 'owner@example.test', status: 'sent', attempts: 1, error: null }),
      expect.objectContaining({ channel: 'slack', recipient: new URL(slack.webhookUrl).origin + '/…', status: 'sent', attempts: 1 }),
      expect.objectContaining({ channel: 'webhook', recipient: hook.url, status: 'sent', attempts: 1 }),
    ]);
    expect(sendgrid.mails).toEqual([expect.objectContaining({ to: 'owner@example.test', subject: '[TEST] Shop' })]);
    expect(slack.messages).toHaveLength(1);
    expect(slack.messages[0].text).toContain(`https://uptime.example.test/monitors/${monitor.id}`);
    expect(hook.rejected).toEqual([]);
    expect(hook.received).toEqual([
      expect.objectContaining({ event: 'test', body: expect.objectContaining({ event: 'test', monitor: { id: monitor.id, name: 'Shop', url: 'https://shop.example.test/' } }) }),
    ]);

    // A rotated key signs the next test; the receiver still holding the old one refuses it.
    const rotated = successOf(await client.post('/api/v1/monitors/{id}/alerts/webhook-secret', path)).data;
    const stale = successOf(await client.post('/api/v1/monitors/{id}/alerts/test', path)).data;
    expect(stale.deliveries.find((d) => d.channel === 'webhook')).toMatchObject({ status: 'failed', error: 'webhook answered 401: bad signature' });
    hook.secret = rotated.webhook_secret ?? '';
    const fresh = successOf(await client.post('/api/v1/monitors/{id}/alerts/test', path)).data;
    expect(fresh.deliveries.find((d) => d.channel === 'webhook')).toMatchObject({ status: 'sent' });

    for (let i = 0; i < 2; i += 1) successOf(await client.post('/api/v1/monitors/{id}/alerts/test', path));
    const limited = await client.post('/api/v1/monitors/{id}/alerts/test', path);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(slack.messages).toHaveLength(5);
    // The limit is per monitor: another monitor of the same owner is tested at once.
    const other = await aMonitor(ds, user, { name: 'Blog', url: 'https://blog.example.test/' });
    const otherTested = successOf(await client.post('/api/v1/monitors/{id}/alerts/test', { path: { id: other.id } })).data;
    expect(otherTested.deliveries).toEqual([expect.objectContaining({ channel: 'email', recipient: 'owner@example.test', status: 'sent' })]);
  });

  it("sends a downtime's webhook with the notification as GET /notifications/{id} shows it, without its deliveries", async () => {
    const { auth, user } = await aCaller(ds, { email: 'docs-owner@example.test' });
    const monitor = await aMonitor(ds, user, { name: 'Docs', url: 'https://docs.example.test/' });
    const client = await contractCheckedClient(api.url, auth);
    const path = { path: { id: monitor.id } };
    const saved = successOf(await client.put('/api/v1/monitors/{id}/alerts', { ...path, body: { email_enabled: false, webhook_enabled: true, webhook_url: hook.url } })).data;
    hook.secret = saved.webhook_secret ?? '';
    hook.received.length = 0;

    await queueDowntime(ds, stack.config, monitor.id);
    const [received] = await waitFor(() => Promise.resolve(hook.received.length > 0 ? hook.received : null), { what: 'the downtime webhook' });
    const notificationId = (received.body.notification as { id: number }).id;
    await waitFor(
      async () => ((await ds.query(`SELECT status FROM notification_deliveries WHERE notification_id = $1`, [notificationId])) as { status: string }[])[0]?.status === 'sent',
      { what: 'the webhook delivery recorded as sent' },
    );

    const { deliveries, ...shown } = successOf(await client.get('/api/v1/notifications/{id}', { path: { id: notificationId } })).data;
    expect(deliveries).toEqual([expect.objectContaining({ channel: 'webhook', recipient: hook.url, status: 'sent', attempts: 1 })]);
    expect(received.event).toBe('downtime');
    expect(received.body.notification).toEqual(shown);

    // A test send's notification has the same fields (its id null: it is not recorded).
    successOf(await client.post('/api/v1/monitors/{id}/alerts/test', path));
    const test = hook.received.find((r) => r.event === 'test');
    expect(Object.keys(test?.body.notification ?? {}).sort()).toEqual(Object.keys(shown).sort());
  });
});
