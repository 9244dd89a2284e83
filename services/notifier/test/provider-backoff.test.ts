import { createLogger } from '@uptime/logger';
import { createServiceMetrics } from '@uptime/observability';
import { metricValue, sleep, startFakeSlack, startFakeWebhookReceiver, type BackOffMode, type FakeHttpServer } from '@uptime/testing';
import { aMonitorThatWentDown, deliveriesOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

jest.setTimeout(60_000);

const SECRET = 'whsec-backoff-0123456789abcdef';

type HeaderForm = 'an HTTP date' | 'a Unix time' | 'seconds to wait';

/** The forms a receiver may write its back-off time in (docs/reliability.md). */
const HEADER_FORMS: Record<HeaderForm, (until: Date) => string> = {
  'an HTTP date': (until) => until.toUTCString(),
  'a Unix time': (until) => String(until.getTime() / 1000),
  'seconds to wait': () => '2',
};

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

  it.each([
    ['email', 503, 'retry-after', 'an HTTP date'],
    ['email', 429, 'x-ratelimit-reset', 'an HTTP date'],
    ['slack', 503, 'x-ratelimit-reset', 'a Unix time'],
    ['slack', 429, 'retry-after', 'an HTTP date'],
    ['webhook', 429, 'x-ratelimit-reset', 'seconds to wait'],
    ['webhook', 503, 'retry-after', 'seconds to wait'],
  ] as const)(
    '%s: a %i with %s as %s pauses that provider for every notifier, in the log and the metrics, then sends once',
    async (channel, status, header, form: HeaderForm) => {
      const [slack, hook] = await Promise.all([startFakeSlack(), startFakeWebhookReceiver(SECRET)]);
      try {
        const down = await aMonitorThatWentDown(bed.ds, {
          owner: { email: 'owner@example.test' },
          monitor: {
            emailEnabled: channel === 'email',
            slackEnabled: channel === 'slack',
            slackWebhookUrl: slack.webhookUrl,
            webhookEnabled: channel === 'webhook',
            webhookUrl: hook.url,
            webhookSecret: SECRET,
          },
        });
        // A whole second: an HTTP date has no milliseconds.
        const until = new Date(Math.ceil((Date.now() + 2500) / 1000) * 1000);
        const backOff: BackOffMode = { kind: 'back-off', status, headers: { [header]: HEADER_FORMS[form](until) } };
        let server: FakeHttpServer;
        let provider: string;
        let answerAgain: () => void;
        if (channel === 'email') {
          bed.sendgrid.setMode(backOff);
          [server, provider, answerAgain] = [bed.sendgrid.server, 'sendgrid', () => bed.sendgrid.setMode({ kind: 'accept' })];
        } else {
          // The monitor's own Slack and webhook are channels (docs/channels.md): the back-off is the channel's own.
          const [own] = (await bed.ds.query(`SELECT id FROM channels WHERE monitor_id = $1 AND type = $2`, [down.monitor.id, channel])) as { id: number }[];
          const fake = channel === 'slack' ? slack : hook;
          fake.setMode(backOff);
          [server, provider, answerAgain] = [fake.server, `${channel}:channel:${own!.id}`, () => fake.setMode({ kind: 'ok' })];
        }
        const lines: Record<string, unknown>[] = [];
        const logger = createLogger({ level: 'info', service: 'notifier-test', destination: { write: (line) => void lines.push(JSON.parse(line)) } });
        const metrics = createServiceMetrics();

        await expect(bed.processor(undefined, { metrics, logger })(down.offline)).rejects.toThrow(/will retry/);

        expect(server.requests).toHaveLength(1);
        const [pause] = (await bed.ds.query(`SELECT provider, paused_until FROM provider_pauses`)) as { provider: string; paused_until: Date }[];
        expect(pause.provider).toBe(provider);
        if (form === 'seconds to wait') {
          // Counted from the answer: 2 s after it, give or take the notifier reading it.
          expect(pause.paused_until.getTime()).toBeGreaterThanOrEqual(server.requests[0].receivedAt + 2000);
          expect(pause.paused_until.getTime()).toBeLessThan(server.requests[0].receivedAt + 4000);
        } else {
          expect(pause.paused_until).toEqual(until);
        }
        const rendered = await metrics.render();
        expect(metricValue(rendered, 'provider_pauses_total', { provider })).toBe(1);
        expect(metricValue(rendered, 'provider_paused_until_seconds', { provider })).toBe(pause.paused_until.getTime() / 1000);
        expect(lines).toContainEqual(
          expect.objectContaining({
            level: 40,
            msg: 'provider asked to back off; sending nothing to it until then',
            provider,
            paused_until: pause.paused_until.toISOString(),
          }),
        );

        // Another notifier before that time, the receiver willing again: nothing goes out.
        answerAgain();
        await expect(bed.processor()(down.offline)).rejects.toThrow(/will retry/);
        expect(server.requests).toHaveLength(1);
        const [postponed] = await deliveriesOf(bed.ds, down.incident.id);
        expect(postponed).toMatchObject({ channel, status: 'pending', attempts: 1 });
        expect(postponed.next_attempt_at.getTime()).toBeGreaterThanOrEqual(pause.paused_until.getTime());

        // The pause is a span of time that must pass.
        await sleep(pause.paused_until.getTime() - Date.now() + 50);
        await bed.processor()(down.offline);

        expect(server.requests).toHaveLength(2);
        expect(server.requests[1].receivedAt).toBeGreaterThanOrEqual(pause.paused_until.getTime());
        expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([expect.objectContaining({ channel, status: 'sent', attempts: 2 })]);
      } finally {
        await Promise.all([slack.close(), hook.close()]);
      }
    },
  );
});
