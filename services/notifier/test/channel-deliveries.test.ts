import { createServiceMetrics } from '@uptime/observability';
import { metricValue, startFakeSlack, startFakeWebhookReceiver, type FakeSlack, type FakeWebhookReceiver } from '@uptime/testing';
import { LogEmailChannel } from '../src/channels/log-email';
import { attachedChannel, channelKeyring as keyring } from './support/attached-channels';
import { aMonitorThatWentDown, deliveriesOf, theMonitorRecovers } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

/** Alerts through the channels attached to a monitor (docs/channels.md): the same deliveries, claims and retries as its own settings. */
jest.setTimeout(60_000);

const SIGNING_KEY = 'whsec-channel-0123456789abcdef';

describe('deliveries through attached channels', () => {
  const bed = useTestbed();
  let slack: FakeSlack;
  let hook: FakeWebhookReceiver;
  beforeEach(async () => {
    slack = await startFakeSlack();
    hook = await startFakeWebhookReceiver(SIGNING_KEY);
  });
  afterEach(async () => {
    await slack.close();
    await hook.close();
  });

  it('sends one message per channel per notification with two notifiers and every event twice, and records no secret on a delivery', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' }, monitor: { emailRecipients: ['ops@example.test'] } });
    const slackChannel = await attachedChannel(bed.ds, down.monitor.id, 'slack', {}, { webhook_url: slack.webhookUrl });
    const hookChannel = await attachedChannel(bed.ds, down.monitor.id, 'webhook', { url: hook.url }, { secret: SIGNING_KEY });
    // ops@ is the monitor's own recipient too: one email to it, not two.
    await attachedChannel(bed.ds, down.monitor.id, 'email', { recipients: ['ops@example.test', 'team@example.test'] }, {});

    const [first, second] = [bed.processor(undefined, { keyring }), bed.processor(undefined, { keyring })];
    await Promise.all([first(down.offline), second(down.offline), first(down.offline), second(down.offline)]);
    const online = await theMonitorRecovers(bed.ds, down);
    await Promise.all([first(online), second(online), second(down.offline), first(online)]);

    expect(slack.messages.map((m) => m.text)).toEqual([expect.stringContaining('Shop is down'), expect.stringContaining('Shop is back up')]);
    expect(hook.rejected).toEqual([]);
    expect(hook.received.map((r) => r.event)).toEqual(['downtime', 'recovery']);
    expect(bed.sendgrid.mails.map((m) => [m.subject, m.to].join(' → ')).sort()).toEqual(
      ['[DOWN] Shop is down → ops@example.test', '[DOWN] Shop is down → team@example.test', '[UP] Shop is back up → ops@example.test', '[UP] Shop is back up → team@example.test'].sort(),
    );

    const deliveries = await deliveriesOf(bed.ds, down.incident.id);
    expect(deliveries.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
    expect(deliveries.filter((d) => d.channel === 'slack').map((d) => [d.recipient, d.channel_id])).toEqual([
      [`channel:${slackChannel}`, slackChannel],
      [`channel:${slackChannel}`, slackChannel],
    ]);
    expect(deliveries.filter((d) => d.channel === 'webhook').map((d) => d.recipient)).toEqual([`channel:${hookChannel}`, `channel:${hookChannel}`]);
    expect(JSON.stringify(deliveries)).not.toContain(slack.webhookUrl);
    expect(JSON.stringify(deliveries)).not.toContain(SIGNING_KEY);
  });

  it('records an email that only went to the log as logged, and one a transport took as sent', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['ops@example.test'] } });
    const metrics = createServiceMetrics();
    await bed.processor(new LogEmailChannel({ info: () => undefined }), { metrics })(down.offline);
    const logged = await deliveriesOf(bed.ds, down.incident.id);
    expect(logged.map((d) => [d.status, d.logged_only])).toEqual([['sent', true]]);
    const text = await metrics.render();
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'email', outcome: 'logged' })).toBe(1);
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'email', outcome: 'sent' })).toBeUndefined();
    expect(bed.sendgrid.mails).toEqual([]);

    const other = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['ops@example.test'] } });
    await bed.processor()(other.offline);
    expect((await deliveriesOf(bed.ds, other.incident.id)).map((d) => [d.status, d.logged_only])).toEqual([['sent', false]]);
  });

  it.each([
    ['detached', 'DELETE FROM monitor_channels WHERE channel_id = $1'],
    ['deleted', 'DELETE FROM channels WHERE id = $1'],
  ])('fails a delivery permanently, sending nothing, once its channel was %s between attempts', async (_what, sql) => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailEnabled: false } });
    const channel = await attachedChannel(bed.ds, down.monitor.id, 'slack', {}, { webhook_url: slack.webhookUrl });
    const processor = bed.processor(undefined, { keyring });
    slack.setMode({ kind: 'error' });
    await expect(processor(down.offline)).rejects.toThrow(/will retry/);
    await bed.ds.query(sql, [channel]);
    slack.setMode({ kind: 'ok' });
    await bed.ds.query(`UPDATE notification_deliveries SET next_attempt_at = now()`);
    await processor(down.offline);
    expect(slack.messages).toEqual([]);
    const [delivery] = await deliveriesOf(bed.ds, down.incident.id);
    expect(delivery).toMatchObject({ status: 'failed', last_error: expect.stringContaining(`channel ${channel} was detached or deleted`) });
  });
});
