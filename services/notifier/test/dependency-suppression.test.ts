import { aMonitor, aUser } from '@uptime/testing';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf, theMonitorRecovers } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('dependencies: a child of an offline monitor (docs/alert-rules.md)', () => {
  const bed = useTestbed();

  const suppression = async (incidentId: number) =>
    (await bed.ds.query('SELECT type, suppressed, suppressed_by FROM notifications WHERE incident_id = $1 ORDER BY id', [incidentId])) as {
      type: string;
      suppressed: boolean;
      suppressed_by: number[];
    }[];

  it('records the downtime of a child whose parent is down as suppressed, sends nothing, and suppresses its recovery too', async () => {
    const parent = await aMonitorThatWentDown(bed.ds, { monitor: { name: 'Database' } });
    const process = bed.processor();
    await process(parent.offline);
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Database is down']);

    const child = await aMonitorThatWentDown(bed.ds, { monitor: { dependsOn: [parent.monitor.id] } });
    await process(child.offline);
    await process(child.offline);
    expect(await suppression(child.incident.id)).toEqual([{ type: 'downtime', suppressed: true, suppressed_by: [parent.monitor.id] }]);
    expect(await deliveriesOf(bed.ds, child.incident.id)).toEqual([]);

    // The parent comes back first; the child's recovery follows its suppressed downtime.
    await theMonitorRecovers(bed.ds, parent);
    const childUp = await theMonitorRecovers(bed.ds, child);
    await process(childUp);
    await process(childUp);
    expect(await suppression(child.incident.id)).toEqual([
      { type: 'downtime', suppressed: true, suppressed_by: [parent.monitor.id] },
      { type: 'recovery', suppressed: true, suppressed_by: [parent.monitor.id] },
    ]);
    expect(await deliveriesOf(bed.ds, child.incident.id)).toEqual([]);
    expect((await notificationsOf(bed.ds, child.incident.id)).map((n) => [n.type, n.status])).toEqual([
      ['downtime', 'resolved'],
      ['recovery', 'resolved'],
    ]);
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Database is down']);
  });

  it('names only the offline parents, and sends as usual while none is offline', async () => {
    const owner = await aUser(bed.ds);
    const online = await aMonitor(bed.ds, owner, { status: 'online' });
    const down = await aMonitorThatWentDown(bed.ds);
    const suppressed = await aMonitorThatWentDown(bed.ds, { monitor: { dependsOn: [online.id, down.monitor.id] } });
    await bed.processor()(suppressed.offline);
    expect(await suppression(suppressed.incident.id)).toEqual([{ type: 'downtime', suppressed: true, suppressed_by: [down.monitor.id] }]);

    const sent = await aMonitorThatWentDown(bed.ds, { monitor: { name: 'Shop', dependsOn: [online.id] } });
    await bed.processor()(sent.offline);
    expect(await suppression(sent.incident.id)).toEqual([{ type: 'downtime', suppressed: false, suppressed_by: [] }]);
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down']);
  });

  it('does not suppress the recovery of a downtime that was sent, though the parent went down since', async () => {
    const owner = await aUser(bed.ds);
    const parent = await aMonitor(bed.ds, owner, { status: 'online' });
    const child = await aMonitorThatWentDown(bed.ds, { monitor: { dependsOn: [parent.id] } });
    const process = bed.processor();
    await process(child.offline);
    await bed.ds.query(`UPDATE monitors SET status = 'offline' WHERE id = $1`, [parent.id]);
    await process(await theMonitorRecovers(bed.ds, child));
    expect(await suppression(child.incident.id)).toEqual([
      { type: 'downtime', suppressed: false, suppressed_by: [] },
      { type: 'recovery', suppressed: false, suppressed_by: [] },
    ]);
    expect(bed.sendgrid.mails.map((m) => m.subject)).toEqual(['[DOWN] Shop is down', '[UP] Shop is back up']);
  });
});
