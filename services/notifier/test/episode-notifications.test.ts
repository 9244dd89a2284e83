import { createServiceMetrics } from '@uptime/observability';
import { allowAnyAddress } from '@uptime/probe';
import { metricValue, startFakeSlack, startFakeWebhookReceiver } from '@uptime/testing';
import { EmailSendError } from '../src/channels/email-channel';
import { startDeliverySweeper } from '../src/deliveries/delivery-sweeper';
import {
  aCertificateUnderTheLimit,
  aMonitorThatBecameSlow,
  episodeDeliveriesOf,
  episodeNotificationsOf,
  theEpisodeEnds,
} from './support/episode-fixtures';
import { useTestbed } from './support/testbed';

jest.setTimeout(60_000);

const STARTED = new Date('2026-11-22T10:00:00.000Z');

describe('slow and certificate notifications (docs/notifications.md)', () => {
  const bed = useTestbed();
  const subjects = () => bed.sendgrid.mails.map((m) => m.subject);

  describe('slow', () => {
    it('records an active slow notification and emails it, then resolves it and emails "no longer slow"', async () => {
      const slow = await aMonitorThatBecameSlow(bed.ds, { owner: { email: 'owner@example.test' }, startedAt: STARTED });
      await bed.processor()(slow.opened);

      const [active, ...others] = await episodeNotificationsOf(bed.ds, slow.episodeId);
      expect(others).toEqual([]);
      expect(active).toMatchObject({
        type: 'slow',
        status: 'active',
        incident_id: null,
        started_at: STARTED,
        resolved_at: null,
        message: 'Monitor "Shop" (https://shop.example.test/health) is slow: responded in 1450 ms, over its 800 ms threshold',
        email_sent_at: expect.any(Date),
      });
      expect(subjects()).toEqual(['[SLOW] Shop is slow']);
      expect(bed.sendgrid.mails[0]!.text).toContain('Response time: 1450 ms');
      expect(bed.sendgrid.mails[0]!.text).toContain('Threshold: 800 ms');

      await bed.processor()(await theEpisodeEnds(bed.ds, slow, 192));

      expect(await episodeNotificationsOf(bed.ds, slow.episodeId)).toEqual([
        expect.objectContaining({ id: active!.id, status: 'resolved', resolved_at: new Date(STARTED.getTime() + 192_000), duration: 192 }),
      ]);
      expect(subjects()).toEqual(['[SLOW] Shop is slow', '[OK] Shop is no longer slow']);
      expect(bed.sendgrid.mails[1]!.text).toContain('Slow for: 3m 12s');
      expect(await episodeDeliveriesOf(bed.ds, slow.episodeId)).toEqual([
        { channel: 'email', phase: 'opened', recipient: 'owner@example.test', status: 'sent' },
        { channel: 'email', phase: 'resolved', recipient: 'owner@example.test', status: 'sent' },
      ]);
    });

    it('counts the latency of "no longer slow" from the end of the slow period, and of "slow" from its start', async () => {
      const slow = await aMonitorThatBecameSlow(bed.ds, { startedAt: STARTED });
      const metrics = createServiceMetrics();
      const started = Date.now();
      await bed.processor(undefined, { metrics })(slow.opened);
      const ended = await theEpisodeEnds(bed.ds, slow, 192);
      const endedAt = STARTED.getTime() + 192_000;
      await bed.processor(undefined, { metrics })(ended);
      const done = Date.now();

      const text = await metrics.render();
      expect(metricValue(text, 'notification_delivery_latency_seconds_count', { channel: 'email' })).toBe(2);
      const sum = metricValue(text, 'notification_delivery_latency_seconds_sum', { channel: 'email' })!;
      expect(sum).toBeGreaterThanOrEqual((started - STARTED.getTime() + (started - endedAt)) / 1000);
      expect(sum).toBeLessThanOrEqual((done - STARTED.getTime() + (done - endedAt)) / 1000);
    });

    it('ends in one notification and two emails when both events race on two notifiers, each delivered twice', async () => {
      const slow = await aMonitorThatBecameSlow(bed.ds);
      const ended = await theEpisodeEnds(bed.ds, slow);
      const [first, second] = [bed.processor(), bed.processor()];

      await Promise.all([first(ended), second(slow.opened), first(slow.opened), second(ended)]);

      expect((await episodeNotificationsOf(bed.ds, slow.episodeId)).map((n) => [n.type, n.status])).toEqual([['slow', 'resolved']]);
      // The start before the end, whichever event came first.
      expect(subjects()).toEqual(['[SLOW] Shop is slow', '[OK] Shop is no longer slow']);
      expect(bed.sendgrid.server.requests).toHaveLength(2);
    });

    it('sends no "no longer slow" for a slow notification resolved by hand, nor once alert_on_slow is off', async () => {
      const byHand = await aMonitorThatBecameSlow(bed.ds, { monitor: { name: 'ByHand' } });
      await bed.processor()(byHand.opened);
      await bed.ds.query(
        `UPDATE notifications SET status = 'resolved', resolved_manually = true, resolved_at = now() WHERE episode_id = $1`,
        [byHand.episodeId],
      );
      await bed.processor()(await theEpisodeEnds(bed.ds, byHand));

      const switchedOff = await aMonitorThatBecameSlow(bed.ds, { monitor: { name: 'Off' } });
      await bed.processor()(switchedOff.opened);
      await bed.ds.query(`UPDATE monitors SET alert_on_slow = false WHERE id = $1`, [switchedOff.monitor.id]);
      await bed.processor()(await theEpisodeEnds(bed.ds, switchedOff));

      expect(subjects()).toEqual(['[SLOW] ByHand is slow', '[SLOW] Off is slow']);
      expect((await episodeNotificationsOf(bed.ds, switchedOff.episodeId))[0]).toMatchObject({ status: 'resolved', duration: 192 });
    });

    it('sends both messages on Slack and the webhook, the end as event slow_resolved', async () => {
      const slack = await startFakeSlack();
      const hook = await startFakeWebhookReceiver('whsec-test-episodes');
      try {
        const slow = await aMonitorThatBecameSlow(bed.ds, {
          monitor: {
            slackEnabled: true,
            slackWebhookUrl: slack.webhookUrl,
            webhookEnabled: true,
            webhookUrl: hook.url,
            webhookSecret: hook.secret,
          },
        });
        const process = bed.processor(undefined, { addressPolicy: allowAnyAddress });
        await process(slow.opened);
        await process(await theEpisodeEnds(bed.ds, slow));

        expect(slack.messages.map((m) => m.text.split(' (')[0])).toEqual(['[SLOW] Shop is slow', '[OK] Shop is no longer slow']);
        expect(hook.received.map((r) => [r.event, (r.body.notification as { type: string }).type])).toEqual([
          ['slow', 'slow'],
          ['slow_resolved', 'slow'],
        ]);
      } finally {
        await slack.close();
        await hook.close();
      }
    });

    it('leaves a failed message to the sweeper, which sends it with the episode it belongs to', async () => {
      const slow = await aMonitorThatBecameSlow(bed.ds, { owner: { email: 'owner@example.test' } });
      await expect(
        bed.processor({ send: () => Promise.reject(new EmailSendError('connection reset', false)) })(slow.opened),
      ).rejects.toThrow(/episode \d+\); will retry/);
      const sweeper = startDeliverySweeper(bed.deliveryDeps(), { intervalMs: 60_000 });
      try {
        await bed.ds.query(`UPDATE notification_deliveries SET next_attempt_at = now() - interval '1 second'`);
        expect(await sweeper.sweep()).toBe(1);
      } finally {
        await sweeper.stop();
      }
      expect(subjects()).toEqual(['[SLOW] Shop is slow']);
    });
  });

  describe('certificate', () => {
    it('records one certificate notification and one email, however often its event comes', async () => {
      const cert = await aCertificateUnderTheLimit(bed.ds, { startedAt: STARTED });
      const [first, second] = [bed.processor(), bed.processor()];
      await Promise.all([first(cert.opened), second(cert.opened)]);
      await first(cert.opened);

      const [n, ...others] = await episodeNotificationsOf(bed.ds, cert.episodeId);
      expect(others).toEqual([]);
      expect(n).toMatchObject({
        type: 'certificate',
        status: 'active',
        message: 'Monitor "Shop" (https://shop.example.test/health): its TLS certificate expires in 3 days (2026-11-25T10:00:00.000Z)',
      });
      expect(subjects()).toEqual(['[CERT] Shop: certificate expires in 3 days']);
      expect(bed.sendgrid.mails[0]!.text).toContain('Expires at: 2026-11-25T10:00:00.000Z');
      expect(bed.sendgrid.mails[0]!.text).toContain('Alert limit: 14 days');
    });

    it('resolves it without an email when the certificate changes', async () => {
      const cert = await aCertificateUnderTheLimit(bed.ds);
      await bed.processor()(cert.opened);
      await bed.processor()(await theEpisodeEnds(bed.ds, cert, 3600));

      expect(await episodeNotificationsOf(bed.ds, cert.episodeId)).toEqual([
        expect.objectContaining({ status: 'resolved', duration: 3600 }),
      ]);
      expect(subjects()).toEqual(['[CERT] Shop: certificate expires in 3 days']);
    });

    it('records a certificate already replaced when its event is handled as resolved, and sends nothing', async () => {
      const cert = await aCertificateUnderTheLimit(bed.ds);
      const ended = await theEpisodeEnds(bed.ds, cert, 60);
      await bed.processor()(cert.opened);
      await bed.processor()(ended);

      expect(await episodeNotificationsOf(bed.ds, cert.episodeId)).toEqual([
        expect.objectContaining({ type: 'certificate', status: 'resolved' }),
      ]);
      expect(subjects()).toEqual([]);
    });

    it('says an expired certificate has expired', async () => {
      await bed.processor()(
        (await aCertificateUnderTheLimit(bed.ds, { certificateExpiresAt: new Date(STARTED.getTime() - 1000), startedAt: STARTED })).opened,
      );
      expect(subjects()).toEqual(['[CERT] Shop: certificate has expired']);
    });
  });
});
