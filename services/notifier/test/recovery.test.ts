import { incidentRef } from '../src/alert';
import { loadAlert } from '../src/alert.repository';
import { recordAlertNotifications } from '../src/notification.repository';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf, theMonitorRecovers } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

const STARTED = new Date('2026-11-22T10:00:00.000Z');
const RECOVERED = new Date('2026-11-22T10:03:12.000Z'); // 192 s later

describe('status-changed → online', () => {
  const bed = useTestbed();

  it('resolves the downtime with its duration and sends a resolved recovery notification', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' }, startedAt: STARTED });
    await bed.processor()(down.offline);
    const online = await theMonitorRecovers(bed.ds, down, 192);

    await bed.processor()(online);

    const [downtime, recovery, ...others] = await notificationsOf(bed.ds, down.incident.id);
    expect(others).toHaveLength(0);
    expect(downtime).toMatchObject({ type: 'downtime', status: 'resolved', started_at: STARTED, resolved_at: RECOVERED, duration: 192 });
    expect(recovery).toMatchObject({
      type: 'recovery',
      status: 'resolved',
      user_id: down.owner.id,
      started_at: RECOVERED,
      resolved_at: RECOVERED,
      duration: 192,
      message: 'Monitor "Shop" (https://shop.example.test/health) is back up after 3m 12s of downtime',
    });
    expect(recovery.email_sent_at).toBeInstanceOf(Date);

    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down', '[UP] Shop is back up']);
    const up = bed.sendgrid.mails[1];
    expect(up.to).toBe('owner@example.test');
    expect(up.text).toContain('Monitor "Shop" is back up.');
    expect(up.text).toContain('Downtime: 3m 12s');
    expect(up.text).toContain('Down since: 2026-11-22T10:00:00.000Z');
    expect(up.text).toContain('Recovered at: 2026-11-22T10:03:12.000Z');
  });

  it('records the recovery without emailing it when alert_on_recovery is off', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { alertOnRecovery: false } });
    await bed.processor()(down.offline);

    await bed.processor()(await theMonitorRecovers(bed.ds, down));

    const [downtime, recovery] = await notificationsOf(bed.ds, down.incident.id);
    expect(downtime).toMatchObject({ status: 'resolved', email_sent_at: expect.any(Date) });
    expect(recovery).toMatchObject({ type: 'recovery', status: 'resolved', email_sent_at: null });
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down']);
  });

  it('creates no recovery for a downtime its owner resolved by hand', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    await bed.processor()(down.offline);
    const resolvedByHand = new Date('2026-11-22T10:01:00.000Z');
    await bed.ds.query(
      `UPDATE notifications SET status = 'resolved', resolved_manually = true, resolved_at = $2 WHERE incident_id = $1`,
      [down.incident.id, resolvedByHand],
    );

    await bed.processor()(await theMonitorRecovers(bed.ds, down));

    expect(await notificationsOf(bed.ds, down.incident.id)).toEqual([
      // Untouched: still the time and the way its owner resolved it.
      expect.objectContaining({ type: 'downtime', status: 'resolved', resolved_manually: true, resolved_at: resolvedByHand, duration: null }),
    ]);
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down']);
  });

  it('creates the resolved downtime and the recovery when the downtime event was never handled', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { startedAt: STARTED });
    const online = await theMonitorRecovers(bed.ds, down, 192);

    await bed.processor()(online);

    const notifications = await notificationsOf(bed.ds, down.incident.id);
    expect(notifications).toEqual([
      expect.objectContaining({ type: 'downtime', status: 'resolved', started_at: STARTED, resolved_at: RECOVERED, duration: 192 }),
      expect.objectContaining({ type: 'recovery', status: 'resolved', started_at: RECOVERED, duration: 192 }),
    ]);
    // The downtime still gets its one email, saying it is over; then the recovery.
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down', '[UP] Shop is back up']);
    expect(bed.sendgrid.mails[0].text).toContain('Back up at: 2026-11-22T10:03:12.000Z');
  });

  it('lets a downtime event handled after the recovery change nothing', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const online = await theMonitorRecovers(bed.ds, down);
    await bed.processor()(online);
    const before = await notificationsOf(bed.ds, down.incident.id);

    await bed.processor()(down.offline);

    expect(await notificationsOf(bed.ds, down.incident.id)).toEqual(before);
    expect(before.map((n) => [n.type, n.status])).toEqual([
      ['downtime', 'resolved'],
      ['recovery', 'resolved'],
    ]);
    expect(bed.sendgrid.mails).toHaveLength(2);
  });

  it('never opens an active downtime for an incident that closed before its downtime event was handled', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    await theMonitorRecovers(bed.ds, down, 60);

    await bed.processor()(down.offline);

    const notifications = await notificationsOf(bed.ds, down.incident.id);
    expect(notifications.map((n) => [n.type, n.status, n.duration])).toEqual([
      ['downtime', 'resolved', 60],
      ['recovery', 'resolved', 60],
    ]);
    expect((await deliveriesOf(bed.ds, down.incident.id)).map((d) => [d.type, d.status])).toEqual([
      ['downtime', 'sent'],
      ['recovery', 'sent'],
    ]);
  });

  it('takes the incident state from the database when writing, not from what it read before', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    // The downtime event read the incident while it was open; the monitor came back before the write.
    const readWhileOpen = await loadAlert(bed.ds.manager, incidentRef(down.incident.id));
    if (!readWhileOpen) throw new Error('the incident should exist');
    await theMonitorRecovers(bed.ds, down, 30);

    await recordAlertNotifications(bed.ds, readWhileOpen);

    expect(await notificationsOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({ type: 'downtime', status: 'resolved', duration: 30 }),
    ]);
  });
});
