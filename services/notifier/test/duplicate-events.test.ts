import { EmailSendError, type EmailChannel } from '../src/channels/email-channel';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf, theMonitorRecovers } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('status-changed delivered more than once', () => {
  const bed = useTestbed();

  it('makes one notification and one email of a job processed twice', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const process = bed.processor();

    await process(down.offline);
    await process(down.offline);

    expect(await notificationsOf(bed.ds, down.incident.id)).toHaveLength(1);
    expect(bed.sendgrid.mails).toHaveLength(1);
    expect(bed.sendgrid.server.requests).toHaveLength(1);
  });

  it('makes one notification and one email per recipient of a job processed by two notifiers at once', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['a@example.test', 'b@example.test', 'c@example.test'] } });
    // Two processors with channels of their own, as in two notifier processes.
    const first = bed.processor();
    const second = bed.processor();

    await Promise.all([first(down.offline), second(down.offline), first(down.offline), second(down.offline)]);

    expect(await notificationsOf(bed.ds, down.incident.id)).toHaveLength(1);
    expect(bed.sendgrid.mails.map((m) => m.to).sort()).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    const deliveries = await deliveriesOf(bed.ds, down.incident.id);
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
      ['sent', 1],
    ]);
  });

  it('ends in one consistent state when the downtime and recovery events race', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const online = await theMonitorRecovers(bed.ds, down);

    await Promise.all([bed.processor()(down.offline), bed.processor()(online), bed.processor()(online)]);

    const notifications = await notificationsOf(bed.ds, down.incident.id);
    expect(notifications.map((n) => [n.type, n.status])).toEqual([
      ['downtime', 'resolved'],
      ['recovery', 'resolved'],
    ]);
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down', '[UP] Shop is back up']);
  });

  describe('a delivery another notifier claimed', () => {
    const failingOnce = (): EmailChannel => ({
      send: () => Promise.reject(new EmailSendError('connection reset', false)),
    });

    it('is not sent while that claim is fresh, and the job is retried later', async () => {
      const down = await aMonitorThatWentDown(bed.ds);
      await expect(bed.processor(failingOnce())(down.offline)).rejects.toThrow(/failed transiently/);
      // Another notifier claimed it just now and is sending it.
      await bed.ds.query(`UPDATE notification_deliveries SET status = 'sending', lease_until = now() + interval '20 seconds'`);

      await expect(bed.processor(undefined, { inFlightWaitMs: 300 })(down.offline)).rejects.toThrow(/still being sent by another notifier/);

      expect(bed.sendgrid.server.requests).toHaveLength(0);
    });

    it('is sent again once the lease expired (its sender crashed), marked as a possible duplicate', async () => {
      const down = await aMonitorThatWentDown(bed.ds);
      await expect(bed.processor(failingOnce())(down.offline)).rejects.toThrow(/failed transiently/);
      await bed.ds.query(`UPDATE notification_deliveries SET status = 'sending', lease_until = now() - interval '1 second'`);

      await bed.processor()(down.offline);

      expect(bed.sendgrid.mails).toHaveLength(1);
      expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, possible_duplicate: true })]);
    });
  });
});
