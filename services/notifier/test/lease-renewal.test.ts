import { waitFor } from '@uptime/testing';
import { startDeliverySweeper } from '../src/deliveries/delivery-sweeper';
import { aMonitorThatWentDown, deliveriesOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('a delivery lease while its send is slow', () => {
  const bed = useTestbed();

  it('is renewed while the send runs, so the sweeper of another notifier never takes it over', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    // SendGrid takes 2 s to answer: more than three leases of 600 ms.
    bed.sendgrid.setMode({ kind: 'slow', delayMs: 2000 });
    const sending = bed.processor(undefined, { leaseMs: 600 })(down.offline);
    await waitFor(() => bed.sendgrid.openRequests === 1, { what: 'SendGrid to hold the request' });
    const otherNotifier = startDeliverySweeper(bed.deliveryDeps({ leaseMs: 600 }), { intervalMs: 60_000 });
    try {
      // Three sweeps over the slow send, the first already past the first lease's end.
      const swept: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 600));
        swept.push(await otherNotifier.sweep());
      }
      await sending;

      expect(swept).toEqual([0, 0, 0]);
      expect(bed.sendgrid.mails.map((m) => m.to)).toEqual(['owner@example.test']);
      expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 1, possible_duplicate: false }),
      ]);
    } finally {
      await otherNotifier.stop();
    }
  });
});
