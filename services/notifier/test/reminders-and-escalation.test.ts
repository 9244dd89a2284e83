import { createServiceMetrics } from '@uptime/observability';
import { metricValue, type MonitorOverrides } from '@uptime/testing';
import { startDeliverySweeper } from '../src/deliveries/delivery-sweeper';
import { recordDueFollowups, startFollowupSweeper, type FollowupSweeper } from '../src/followups/followup-sweeper';
import { aCertificateUnderTheLimit, aMonitorThatBecameSlow, episodeDeliveriesOf } from './support/episode-fixtures';
import { aMonitorThatWentDown, deliveriesOf, theMonitorRecovers, type DownScenario } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

/**
 * Reminders and escalation (docs/alert-rules.md), against real Postgres and a fake SendGrid. The
 * follow-up sweep is driven with explicit times (`sweep(at(minutes))`), so minutes of a downtime
 * pass at once; each sweep is awaited, so "nothing was sent" is asserted after the work, not after
 * a wait.
 */
describe('reminders and escalation of an unacknowledged downtime', () => {
  const bed = useTestbed();
  const started = new Date('2026-11-22T10:00:00.000Z');
  const at = (minutes: number, seconds = 0): Date => new Date(started.getTime() + minutes * 60_000 + seconds * 1000);
  const sweepers: FollowupSweeper[] = [];
  /** A sweeper as one notifier runs it; its own timer never fires during a test. */
  const aSweeper = (): FollowupSweeper => {
    const sweeper = startFollowupSweeper(bed.deliveryDeps(), { intervalMs: 3_600_000, clock: () => started });
    sweepers.push(sweeper);
    return sweeper;
  };
  /** The delivery sweeper of one notifier, one pass: what a crash left pending. */
  const sweepDeliveries = async (): Promise<number> => {
    const sweeper = startDeliverySweeper(bed.deliveryDeps(), { intervalMs: 3_600_000 });
    try {
      return await sweeper.sweep();
    } finally {
      await sweeper.stop();
    }
  };
  afterEach(async () => {
    await Promise.all(sweepers.splice(0).map((s) => s.stop()));
  });

  const subjects = (): string[] => bed.sendgrid.mails.map((m) => `${m.to}: ${m.subject}`);
  const down = async (monitor: MonitorOverrides): Promise<DownScenario> => {
    const scenario = await aMonitorThatWentDown(bed.ds, { startedAt: started, monitor: { emailRecipients: ['ops@example.test'], ...monitor } });
    await bed.processor()(scenario.offline);
    return scenario;
  };
  const acknowledge = (scenario: DownScenario) =>
    bed.ds.query(`UPDATE notifications SET acknowledged = true, acknowledged_at = now() WHERE incident_id = $1 AND type = 'downtime'`, [scenario.incident.id]);

  it('sends the downtime email again every N minutes, saying for how long it has been down', async () => {
    const scenario = await down({ reminderIntervalMinutes: 5 });
    const sweeper = aSweeper();
    expect(await sweeper.sweep(at(4, 59))).toBe(0);
    expect(subjects()).toEqual(['ops@example.test: [DOWN] Shop is down']);

    expect(await sweeper.sweep(at(5, 2))).toBe(1);
    expect(await sweeper.sweep(at(7))).toBe(0);
    expect(await sweeper.sweep(at(10))).toBe(1);
    expect(subjects()).toEqual([
      'ops@example.test: [DOWN] Shop is down',
      'ops@example.test: [DOWN] Shop is still down for 5 minutes',
      'ops@example.test: [DOWN] Shop is still down for 10 minutes',
    ]);
    expect(bed.sendgrid.mails[1]!.text).toContain('Reminders stop once the downtime is acknowledged.');

    // A changed interval applies to the next reminder: 60 minutes after the last one (10:10).
    await bed.ds.query('UPDATE monitors SET reminder_interval_minutes = 60 WHERE id = $1', [scenario.monitor.id]);
    expect(await sweeper.sweep(at(69))).toBe(0);
    expect(await sweeper.sweep(at(125))).toBe(1);
    expect(subjects().at(-1)).toBe('ops@example.test: [DOWN] Shop is still down for 1 hour 10 minutes');

    const reminders = (await deliveriesOf(bed.ds, scenario.incident.id)).filter((d) => d.kind === 'reminder');
    expect(reminders.map((d) => [d.round, d.status])).toEqual([
      [1, 'sent'],
      [2, 'sent'],
      [3, 'sent'],
    ]);
  });

  it("counts a reminder's latency from the time it was due, not from the downtime's start", async () => {
    await down({ reminderIntervalMinutes: 5 });
    const metrics = createServiceMetrics();
    const sweeper = startFollowupSweeper(bed.deliveryDeps({ metrics }), { intervalMs: 3_600_000, clock: () => started });
    sweepers.push(sweeper);

    const before = Date.now();
    expect(await sweeper.sweep(at(5))).toBe(1);
    const after = Date.now();

    const text = await metrics.render();
    expect(metricValue(text, 'notification_delivery_latency_seconds_count', { channel: 'email' })).toBe(1);
    const latency = metricValue(text, 'notification_delivery_latency_seconds_sum', { channel: 'email' })!;
    expect(latency).toBeGreaterThanOrEqual((before - at(5).getTime()) / 1000);
    expect(latency).toBeLessThanOrEqual((after - at(5).getTime()) / 1000);
  });

  it('stops reminding once the downtime is acknowledged, and cancels a reminder not sent yet', async () => {
    const scenario = await down({ reminderIntervalMinutes: 5 });
    const sweeper = aSweeper();
    expect(await sweeper.sweep(at(5))).toBe(1);

    // Recorded (as by a notifier that crashed before sending), then acknowledged: never sent.
    expect(await recordDueFollowups(bed.ds, (await deliveriesOf(bed.ds, scenario.incident.id))[0]!.notification_id, at(10))).toHaveLength(1);
    await acknowledge(scenario);
    expect(await sweepDeliveries()).toBe(1);
    expect(await sweeper.sweep(at(15))).toBe(0);
    expect(await sweeper.sweep(at(60))).toBe(0);

    expect(subjects()).toEqual(['ops@example.test: [DOWN] Shop is down', 'ops@example.test: [DOWN] Shop is still down for 5 minutes']);
    const reminders = (await deliveriesOf(bed.ds, scenario.incident.id)).filter((d) => d.kind === 'reminder');
    expect(reminders.map((d) => [d.round, d.status])).toEqual([
      [1, 'sent'],
      [2, 'cancelled'],
    ]);
  });

  it('drops a reminder still unsent when the next one is due, so a provider coming back gets no burst', async () => {
    const scenario = await down({ reminderIntervalMinutes: 5 });
    const sweeper = aSweeper();
    bed.sendgrid.setMode({ kind: 'server-error' });
    expect(await sweeper.sweep(at(5))).toBe(1);
    expect(await sweeper.sweep(at(10))).toBe(1);
    bed.sendgrid.setMode({ kind: 'accept' });
    expect(await sweeper.sweep(at(15))).toBe(1);
    expect(subjects()).toEqual(['ops@example.test: [DOWN] Shop is down', 'ops@example.test: [DOWN] Shop is still down for 15 minutes']);
    const reminders = (await deliveriesOf(bed.ds, scenario.incident.id)).filter((d) => d.kind === 'reminder');
    expect(reminders.map((d) => [d.round, d.status, d.last_error])).toEqual([
      [1, 'cancelled', 'not sent: superseded by reminder 2'],
      [2, 'cancelled', 'not sent: superseded by reminder 3'],
      [3, 'sent', null],
    ]);
  });

  it('stops reminding when the monitor recovers', async () => {
    const scenario = await down({ reminderIntervalMinutes: 5 });
    const sweeper = aSweeper();
    expect(await sweeper.sweep(at(5))).toBe(1);
    await bed.processor()(await theMonitorRecovers(bed.ds, scenario, 7 * 60));
    expect(await sweeper.sweep(at(10))).toBe(0);
    expect(await sweeper.sweep(at(30))).toBe(0);
    expect(subjects()).toEqual([
      'ops@example.test: [DOWN] Shop is down',
      'ops@example.test: [DOWN] Shop is still down for 5 minutes',
      'ops@example.test: [UP] Shop is back up',
    ]);
  });

  it('sends the downtime email once to the escalation recipients, after the set minutes', async () => {
    await down({ escalationRecipients: ['lead@example.test', 'cto@example.test'], escalationAfterMinutes: 30 });
    const sweeper = aSweeper();
    expect(await sweeper.sweep(at(29, 59))).toBe(0);
    expect(await sweeper.sweep(at(31))).toBe(1);
    expect(await sweeper.sweep(at(60))).toBe(0);
    expect(await sweeper.sweep(at(600))).toBe(0);
    expect(subjects()).toEqual([
      'ops@example.test: [DOWN] Shop is down',
      'lead@example.test: [ESCALATED] Shop is still down for 30 minutes, unacknowledged',
      'cto@example.test: [ESCALATED] Shop is still down for 30 minutes, unacknowledged',
    ]);
  });

  it('does not escalate a downtime acknowledged before then', async () => {
    const scenario = await down({ reminderIntervalMinutes: 10, escalationRecipients: ['lead@example.test'], escalationAfterMinutes: 15 });
    const sweeper = aSweeper();
    expect(await sweeper.sweep(at(10))).toBe(1);
    await acknowledge(scenario);
    expect(await sweeper.sweep(at(15))).toBe(0);
    expect(await sweeper.sweep(at(120))).toBe(0);
    expect(subjects()).toEqual(['ops@example.test: [DOWN] Shop is down', 'ops@example.test: [DOWN] Shop is still down for 10 minutes']);
  });

  it('sends each reminder and the escalation once, however many notifiers sweep and events are redelivered', async () => {
    const scenario = await down({ reminderIntervalMinutes: 5, escalationRecipients: ['lead@example.test'], escalationAfterMinutes: 5 });
    const [a, b] = [aSweeper(), aSweeper()];
    for (const minutes of [5, 5, 6, 10, 10]) {
      await Promise.all([a.sweep(at(minutes)), b.sweep(at(minutes)), b.sweep(at(minutes, 30))]);
      // A redelivered offline event neither resends the downtime nor touches its follow-ups.
      await bed.processor()(scenario.offline);
    }
    // A round recorded by a notifier that then died is sent by the delivery sweeper, once.
    expect(await recordDueFollowups(bed.ds, (await deliveriesOf(bed.ds, scenario.incident.id))[0]!.notification_id, at(15))).toHaveLength(1);
    expect(await a.sweep(at(15))).toBe(0);
    await Promise.all([sweepDeliveries(), sweepDeliveries()]);

    expect(subjects().sort()).toEqual(
      [
        'ops@example.test: [DOWN] Shop is down',
        'ops@example.test: [DOWN] Shop is still down for 5 minutes',
        'lead@example.test: [ESCALATED] Shop is still down for 5 minutes, unacknowledged',
        'ops@example.test: [DOWN] Shop is still down for 10 minutes',
        'ops@example.test: [DOWN] Shop is still down for 15 minutes',
      ].sort(),
    );
    const followups = (await bed.ds.query(
      `SELECT f.kind, f.round FROM notification_followups f JOIN notifications n ON n.id = f.notification_id WHERE n.incident_id = $1 ORDER BY f.kind, f.round`,
      [scenario.incident.id],
    )) as { kind: string; round: number }[];
    expect(followups).toEqual([
      { kind: 'escalation', round: 1 },
      { kind: 'reminder', round: 1 },
      { kind: 'reminder', round: 2 },
      { kind: 'reminder', round: 3 },
    ]);
  });

  it('sends no follow-up while the monitor is in a maintenance window, nor for a suppressed downtime or with email off', async () => {
    const inWindow = await down({ reminderIntervalMinutes: 5, escalationRecipients: ['lead@example.test'], escalationAfterMinutes: 5 });
    await bed.ds.query('UPDATE monitors SET in_maintenance = true WHERE id = $1', [inWindow.monitor.id]);
    const emailOff = await down({ name: 'Quiet', reminderIntervalMinutes: 5, emailEnabled: false });
    const suppressed = await down({ name: 'Child', reminderIntervalMinutes: 5 });
    await bed.ds.query(`UPDATE notifications SET suppressed = true, suppressed_by = '{1}' WHERE incident_id = $1`, [suppressed.incident.id]);
    bed.sendgrid.mails.length = 0;

    expect(await aSweeper().sweep(at(30))).toBe(0);
    expect(subjects()).toEqual([]);
    expect(await bed.ds.query(`SELECT 1 FROM monitor_channels WHERE monitor_id = $1`, [emailOff.monitor.id])).toEqual([]);

    // The window over, the rhythm goes on: one reminder, dated on it, not one per missed interval.
    await bed.ds.query('UPDATE monitors SET in_maintenance = false WHERE id = $1', [inWindow.monitor.id]);
    expect(await aSweeper().sweep(at(32))).toBe(1);
    expect(subjects()).toEqual([
      'ops@example.test: [DOWN] Shop is still down for 30 minutes',
      'lead@example.test: [ESCALATED] Shop is still down for 5 minutes, unacknowledged',
    ]);
  });

  it('never reminds nor escalates a slow or certificate notification, even on a monitor that is offline', async () => {
    const followups = { emailRecipients: ['ops@example.test'], reminderIntervalMinutes: 5, escalationRecipients: ['lead@example.test'], escalationAfterMinutes: 5 };
    const slow = await aMonitorThatBecameSlow(bed.ds, { startedAt: started, monitor: followups });
    const certificate = await aCertificateUnderTheLimit(bed.ds, { startedAt: started, monitor: followups });
    await bed.processor()(slow.opened);
    await bed.processor()(certificate.opened);
    // Both notifications still active and unacknowledged, their monitors offline (as a downtime's
    // would be): only the notification's type keeps them from the follow-up sweep.
    await bed.ds.query(`UPDATE monitors SET status = 'offline' WHERE id = ANY($1)`, [[slow.monitor.id, certificate.monitor.id]]);
    const active = await bed.ds.query(`SELECT type FROM notifications WHERE episode_id = ANY($1) AND status = 'active' AND NOT acknowledged ORDER BY type`, [
      [slow.episodeId, certificate.episodeId],
    ]);
    expect(active).toEqual([{ type: 'certificate' }, { type: 'slow' }]);
    const sent = bed.sendgrid.mails.length;
    expect(sent).toBe(2);

    expect(await aSweeper().sweep(at(60))).toBe(0);
    expect(bed.sendgrid.mails).toHaveLength(sent);
    expect(await bed.ds.query(`SELECT * FROM notification_followups`)).toEqual([]);
    for (const episodeId of [slow.episodeId, certificate.episodeId]) {
      expect(await episodeDeliveriesOf(bed.ds, episodeId)).toEqual([{ channel: 'email', phase: 'opened', recipient: 'ops@example.test', status: 'sent' }]);
    }
  });
});
