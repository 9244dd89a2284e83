import { createServiceMetrics } from '@uptime/observability';
import { metricValue } from '@uptime/testing';
import { aMonitorThatWentDown, deliveriesOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

describe('provider back-off (429 with X-RateLimit-Reset or Retry-After)', () => {
  const bed = useTestbed();

  it.each([['x-ratelimit-reset' as const], ['retry-after' as const]])(
    'sends nothing to SendGrid before the time its %s header gave, from any notifier, then sends once',
    async (header) => {
      const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
      const resetAt = new Date(Math.ceil((Date.now() + 2500) / 1000) * 1000);
      bed.sendgrid.setMode({ kind: 'rate-limited', resetAt, headers: [header] });
      const metrics = createServiceMetrics();

      await expect(bed.processor(undefined, { metrics })(down.offline)).rejects.toThrow(/will retry/);
      expect(bed.sendgrid.server.requests).toHaveLength(1);
      // The queue retries at once, here on another notifier: still paused, nothing is sent.
      await expect(bed.processor()(down.offline)).rejects.toThrow(/paused/);
      expect(bed.sendgrid.server.requests).toHaveLength(1);
      const [pause] = await bed.ds.query(`SELECT provider, paused_until FROM provider_pauses`);
      // Retry-After counts whole seconds from when the fake answered, so it may end up to 1 s early.
      expect(pause.provider).toBe('sendgrid');
      expect(Math.abs(pause.paused_until.getTime() - resetAt.getTime())).toBeLessThanOrEqual(1000);
      expect(metricValue(await metrics.render(), 'provider_paused_until_seconds', { provider: 'sendgrid' })).toBe(pause.paused_until.getTime() / 1000);
      expect(metricValue(await metrics.render(), 'provider_pauses_total', { provider: 'sendgrid' })).toBe(1);

      await new Promise((resolve) => setTimeout(resolve, pause.paused_until.getTime() - Date.now() + 50));
      await bed.processor()(down.offline);

      expect(bed.sendgrid.server.requests).toHaveLength(2);
      expect(bed.sendgrid.server.requests[1].receivedAt).toBeGreaterThanOrEqual(pause.paused_until.getTime());
      expect(bed.sendgrid.mails.map((m) => m.to)).toEqual(['owner@example.test']);
      expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
        expect.objectContaining({ status: 'sent', attempts: 2, possible_duplicate: false }),
      ]);
    },
  );

  it('does not pause a provider whose 500 says nothing about when to come back', async () => {
    const down = await aMonitorThatWentDown(bed.ds);
    bed.sendgrid.setMode({ kind: 'server-error', status: 500 });

    await expect(bed.processor()(down.offline)).rejects.toThrow(/will retry/);

    expect(await bed.ds.query(`SELECT * FROM provider_pauses`)).toEqual([]);
  });
});
