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
