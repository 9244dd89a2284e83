import { createServiceMetrics } from '@uptime/observability';
import { metricValue } from '@uptime/testing';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('a send that timed out after its request was written', () => {
  const bed = useTestbed();

  it('is recorded as ambiguous, sent again, and marked possible_duplicate in the record and the metrics', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    // SendGrid takes the mail and never answers.
    bed.sendgrid.setMode({ kind: 'hang' });
    const metrics = createServiceMetrics();
    const impatient = bed.sendGridAt(bed.sendgrid, { timeoutMs: 300 });

    await expect(bed.processor(impatient, { metrics })(down.offline)).rejects.toThrow(/will retry/);

    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({
        status: 'ambiguous',
        attempts: 1,
        possible_duplicate: true,
        last_error: expect.stringMatching(/SendGrid request failed: no answer from .* within 300 ms after the request was sent/),
      }),
    ]);
    const rendered = await metrics.render();
    expect(metricValue(rendered, 'notification_deliveries_total', { channel: 'email', outcome: 'ambiguous' })).toBe(1);
    expect(metricValue(rendered, 'notification_possible_duplicates_total', { channel: 'email' })).toBe(1);

    bed.sendgrid.setMode({ kind: 'accept' });
    await bed.processor(impatient, { metrics })(down.offline);

    // Twice at SendGrid: the duplicate is the price of never losing an alert, and it is on record.
    expect(bed.sendgrid.mails.map((m) => m.to)).toEqual(['owner@example.test', 'owner@example.test']);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 2, possible_duplicate: true, last_error: null }),
    ]);
    expect((await notificationsOf(bed.ds, down.incident.id))[0].email_sent_at).toBeInstanceOf(Date);
    expect(metricValue(await metrics.render(), 'notification_deliveries_total', { channel: 'email', outcome: 'sent' })).toBe(1);
  });

  it('is not ambiguous when the request never got through (connection refused)', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    const nowhere = bed.sendGridAt({ ...bed.sendgrid, url: 'http://127.0.0.1:1' });

    await expect(bed.processor(nowhere)(down.offline)).rejects.toThrow(/will retry/);

    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, possible_duplicate: false }),
    ]);
  });
});
