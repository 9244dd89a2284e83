import { FAKE_TELEGRAM_CHAT, FAKE_TELEGRAM_TOKEN, startFakeSlack, startFakeTelegram, type FakeService, type FakeSlack } from '@uptime/testing';
import { startFollowupSweeper } from '../src/followups/followup-sweeper';
import { attachedChannel, channelKeyring as keyring } from './support/attached-channels';
import { aCertificateUnderTheLimit, aMonitorThatBecameSlow, episodeDeliveriesOf, theEpisodeEnds } from './support/episode-fixtures';
import { aMonitorThatWentDown, deliveriesOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

/**
 * Reminders, slow and certificate alerts go to every channel attached to the monitor, as the
 * downtime itself does (docs/channels.md, docs/alert-rules.md), on the same delivery path.
 */
jest.setTimeout(60_000);

describe('follow-ups and other alert kinds through attached channels', () => {
  const bed = useTestbed();
  let slack: FakeSlack;
  let telegram: FakeService<unknown>;
  beforeEach(async () => {
    [slack, telegram] = await Promise.all([startFakeSlack(), startFakeTelegram()]);
  });
  afterEach(async () => {
    await Promise.all([slack.close(), telegram.close()]);
  });

  const channelServices = () => ({ ...bed.config.channelServices, telegramApiUrl: telegram.url });
  const attachBoth = async (monitorId: number): Promise<void> => {
    await attachedChannel(bed.ds, monitorId, 'slack', {}, { webhook_url: slack.webhookUrl });
    await attachedChannel(bed.ds, monitorId, 'telegram', { chat_id: FAKE_TELEGRAM_CHAT }, { bot_token: FAKE_TELEGRAM_TOKEN });
  };
  const telegramTexts = (): string[] => telegram.received.map((m) => String((m as { text?: unknown }).text ?? ''));

  it('sends each reminder of an unacknowledged downtime to every attached channel, even with the monitor’s email off', async () => {
    const started = new Date('2026-11-22T10:00:00.000Z');
    const down = await aMonitorThatWentDown(bed.ds, { startedAt: started, monitor: { emailEnabled: false, reminderIntervalMinutes: 5 } });
    await attachBoth(down.monitor.id);
    await bed.processor(undefined, { keyring, channelServices: channelServices() })(down.offline);

    const sweeper = startFollowupSweeper(bed.deliveryDeps({ keyring, channelServices: channelServices() }), { intervalMs: 3_600_000, clock: () => started });
    try {
      expect(await sweeper.sweep(new Date(started.getTime() + 5 * 60_000 + 1000))).toBe(1);
      // Sweeping again at the same time records nothing more.
      expect(await sweeper.sweep(new Date(started.getTime() + 5 * 60_000 + 2000))).toBe(0);
    } finally {
      await sweeper.stop();
    }
    expect(slack.messages.map((m) => m.text)).toEqual([expect.stringContaining('Shop is down'), expect.stringContaining('Shop is still down for 5 minutes')]);
    expect(telegramTexts()).toEqual([expect.stringContaining('Shop is down'), expect.stringContaining('Shop is still down for 5 minutes')]);
    expect(bed.sendgrid.mails).toEqual([]);
    const reminders = (await deliveriesOf(bed.ds, down.incident.id)).filter((d) => d.kind === 'reminder');
    expect(reminders.map((d) => [d.channel, d.round, d.status])).toEqual([
      ['slack', 1, 'sent'],
      ['telegram', 1, 'sent'],
    ]);
  });

  it('sends the escalation once to the escalation channels, and to them only, two notifiers sweeping', async () => {
    const started = new Date('2026-11-22T10:00:00.000Z');
    const down = await aMonitorThatWentDown(bed.ds, {
      startedAt: started,
      monitor: { emailEnabled: false, escalationRecipients: ['lead@example.test'], escalationAfterMinutes: 15 },
    });
    // Slack is attached (every alert), Telegram is only the escalation's channel.
    const slackId = await attachedChannel(bed.ds, down.monitor.id, 'slack', {}, { webhook_url: slack.webhookUrl });
    const telegramId = await attachedChannel(bed.ds, down.monitor.id, 'telegram', { chat_id: FAKE_TELEGRAM_CHAT }, { bot_token: FAKE_TELEGRAM_TOKEN });
    await bed.ds.query(`DELETE FROM monitor_channels WHERE channel_id = $1`, [telegramId]);
    await bed.ds.query(`INSERT INTO monitor_escalation_channels (monitor_id, channel_id) VALUES ($1, $2)`, [down.monitor.id, telegramId]);
    await bed.processor(undefined, { keyring, channelServices: channelServices() })(down.offline);
    expect(telegramTexts()).toEqual([]);

    const sweepers = [0, 1].map(() =>
      startFollowupSweeper(bed.deliveryDeps({ keyring, channelServices: channelServices() }), { intervalMs: 3_600_000, clock: () => started }),
    );
    try {
      expect(await sweepers[0]!.sweep(new Date(started.getTime() + 14 * 60_000))).toBe(0);
      const due = new Date(started.getTime() + 15 * 60_000 + 1000);
      const swept = await Promise.all(sweepers.map((s) => s.sweep(due)));
      expect(swept.reduce((a, b) => a + b, 0)).toBe(1);
    } finally {
      await Promise.all(sweepers.map((s) => s.stop()));
    }
    expect(telegramTexts()).toEqual([expect.stringContaining('Shop is still down for 15 minutes')]);
    expect(slack.messages.map((m) => m.text)).toEqual([expect.stringContaining('Shop is down')]);
    expect(bed.sendgrid.mails.map((m) => String(m.to))).toEqual(['lead@example.test']);
    const escalation = (await deliveriesOf(bed.ds, down.incident.id)).filter((d) => d.kind === 'escalation');
    expect(escalation.map((d) => [d.channel, d.recipient, d.status])).toEqual([
      ['email', 'lead@example.test', 'sent'],
      ['telegram', `channel:${telegramId}`, 'sent'],
    ]);
    expect(slackId).not.toBe(telegramId);
  });

  it('sends a slow alert and its end, and a certificate alert, to every attached channel', async () => {
    const slow = await aMonitorThatBecameSlow(bed.ds, { monitor: { emailEnabled: false } });
    await attachBoth(slow.monitor.id);
    const send = bed.processor(undefined, { keyring, channelServices: channelServices() });
    await send(slow.opened);
    await send(await theEpisodeEnds(bed.ds, slow));
    const cert = await aCertificateUnderTheLimit(bed.ds, { monitor: { emailEnabled: false } });
    await attachBoth(cert.monitor.id);
    await send(cert.opened);

    expect(slack.messages.map((m) => m.text)).toEqual([
      expect.stringContaining('Shop is slow'),
      expect.stringContaining('Shop is no longer slow'),
      expect.stringContaining('certificate expires'),
    ]);
    expect(telegramTexts()).toEqual([expect.stringContaining('Shop is slow'), expect.stringContaining('Shop is no longer slow'), expect.stringContaining('certificate expires')]);
    expect((await episodeDeliveriesOf(bed.ds, slow.episodeId)).map((d) => [d.channel, d.phase, d.status])).toEqual([
      ['slack', 'opened', 'sent'],
      ['telegram', 'opened', 'sent'],
      ['slack', 'resolved', 'sent'],
      ['telegram', 'resolved', 'sent'],
    ]);
  });
});
