import { startDeliverySweeper, type DeliverySweeper } from '../src/deliveries/delivery-sweeper';
import { EmailSendError } from '../src/channels/email-channel';
import { aMonitorThatWentDown, deliveriesOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('the delivery sweeper', () => {
  const bed = useTestbed();
  let sweeper: DeliverySweeper;
  beforeEach(() => {
    sweeper = startDeliverySweeper(bed.deliveryDeps(), { intervalMs: 60_000 });
  });
  afterEach(() => sweeper.stop());

  it('sends a delivery whose job is gone once its retry is due, and not before', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    // The job failed once and then vanished (attempts used up, removed): only the record is left.
    await expect(bed.processor({ send: () => Promise.reject(new EmailSendError('connection reset', false)) })(down.offline)).rejects.toThrow(/will retry/);
    const [pending] = await deliveriesOf(bed.ds, down.incident.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });

    expect(await sweeper.sweep()).toBe(0);
    expect(bed.sendgrid.mails).toEqual([]);

    await bed.ds.query(`UPDATE notification_deliveries SET next_attempt_at = now() - interval '1 second'`);
    expect(await sweeper.sweep()).toBe(1);

    expect(bed.sendgrid.mails.map((m) => m.to)).toEqual(['owner@example.test']);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, possible_duplicate: false })]);
    expect(await sweeper.sweep()).toBe(0);
  });
});
