import { createServiceMetrics } from '@uptime/observability';
import { allowPublicAddressesOnly, secretFieldsOf, type ServiceChannelType } from '@uptime/probe';
import { FAKE_TELEGRAM_TOKEN, fakeChannelConfigs, fakeChannelServices, metricValue, startEveryFakeChannel, type EveryFakeChannel } from '@uptime/testing';
import { attachedChannel, channelKeyring as keyring } from './support/attached-channels';
import { aMonitorThatWentDown, deliveriesOf, theMonitorRecovers } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

/**
 * The eight service channels on the one delivery path (docs/channels.md, "The services"):
 * claimed, leased, retried and paced like email, Slack and webhooks, against local fakes of
 * each service.
 */
jest.setTimeout(60_000);

/** Each type's config reaching its fake, split as the API stores it: plain fields and sealed secrets (nulls not kept). */
function configsOf(f: EveryFakeChannel): { [T in ServiceChannelType]: [Record<string, unknown>, Record<string, string>] } {
  const split = (type: ServiceChannelType, config: Record<string, unknown>): [Record<string, unknown>, Record<string, string>] => {
    const secret = new Set(secretFieldsOf(type));
    const set = Object.entries(config).filter(([, v]) => v !== null);
    return [Object.fromEntries(set.filter(([k]) => !secret.has(k))), Object.fromEntries(set.filter(([k]) => secret.has(k)).map(([k, v]) => [k, String(v)]))];
  };
  const configs = fakeChannelConfigs(f) as Record<ServiceChannelType, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(configs).map(([type, config]) => [type, split(type as ServiceChannelType, config)])) as ReturnType<typeof configsOf>;
}

describe('service channels on the delivery path', () => {
  const bed = useTestbed();
  let fakes: EveryFakeChannel;
  beforeEach(async () => {
    fakes = await startEveryFakeChannel();
  });
  afterEach(async () => {
    await Promise.all(Object.values(fakes).map((f) => f.close()));
  });

  const processor = (options: Parameters<typeof bed.processor>[1] = {}) => bed.processor(undefined, { keyring, channelServices: fakeChannelServices(fakes), ...options });

  it('sends exactly one message per incident and event on each of the eight, with two notifiers and every event twice', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailEnabled: false } });
    const configs = configsOf(fakes);
    const ids: Record<string, number> = {};
    for (const [type, [plain, secrets]] of Object.entries(configs)) ids[type] = await attachedChannel(bed.ds, down.monitor.id, type, plain, secrets);

    const metrics = createServiceMetrics();
    const [first, second] = [processor({ metrics }), processor({ metrics })];
    await Promise.all([first(down.offline), second(down.offline), first(down.offline), second(down.offline)]);
    const online = await theMonitorRecovers(bed.ds, down);
    await Promise.all([first(online), second(online), second(down.offline), first(online)]);

    for (const [type, fake] of Object.entries(fakes)) {
      expect([type, fake.refused.map((r) => r.reason)]).toEqual([type, []]);
      expect([type, fake.received.length]).toEqual([type, 2]);
    }
    const key = `uptime-alert-${down.incident.id}`;
    expect(fakes.pagerduty.received.map((e) => [e.action, e.dedupKey])).toEqual([
      ['trigger', key],
      ['resolve', key],
    ]);

    const deliveries = await deliveriesOf(bed.ds, down.incident.id);
    expect(deliveries).toHaveLength(16);
    expect(deliveries.every((d) => d.status === 'sent' && d.attempts === 1 && !d.possible_duplicate)).toBe(true);
    expect(deliveries.map((d) => [d.channel, d.recipient]).slice(0, 8)).toEqual(Object.keys(configs).map((type) => [type, `channel:${ids[type]}`]));
    expect(JSON.stringify(deliveries)).not.toContain(FAKE_TELEGRAM_TOKEN);

    // Metrics per channel type: each sent twice (down and up) in two attempts, each with its latency.
    const text = await metrics.render();
    for (const type of Object.keys(configs)) {
      expect([type, metricValue(text, 'notification_deliveries_total', { channel: type, outcome: 'sent' })]).toEqual([type, 2]);
      expect([type, metricValue(text, 'notification_delivery_attempts_total', { channel: type })]).toEqual([type, 2]);
      expect([type, metricValue(text, 'notification_delivery_latency_seconds_count', { channel: type })]).toEqual([type, 2]);
    }
  });

  it("honours a 429's Retry-After: the delivery waits, then goes out once, on the next due attempt", async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailEnabled: false } });
    const [plain, secrets] = configsOf(fakes).discord;
    await attachedChannel(bed.ds, down.monitor.id, 'discord', plain, secrets);
    fakes.discord.setMode({ kind: 'rate-limited', retryAfterSeconds: 120 });
    const metrics = createServiceMetrics();
    const send = processor({ metrics });
    const before = Date.now();
    await expect(send(down.offline)).rejects.toThrow(/will retry/);
    const [waiting] = await deliveriesOf(bed.ds, down.incident.id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting!.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before + 119_000);

    // Asked again before its time, nothing is sent: the service asked to wait.
    fakes.discord.setMode({ kind: 'ok' });
    await expect(send(down.offline)).rejects.toThrow(/paused/);
    expect(fakes.discord.received).toHaveLength(0);

    await bed.ds.query(`UPDATE notification_deliveries SET next_attempt_at = now()`);
    await bed.ds.query(`DELETE FROM provider_pauses`);
    await send(down.offline);
    expect(fakes.discord.received).toHaveLength(1);
    const [sent] = await deliveriesOf(bed.ds, down.incident.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
    const text = await metrics.render();
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'discord', outcome: 'retry' })).toBe(1);
    expect(metricValue(text, 'notification_deliveries_total', { channel: 'discord', outcome: 'sent' })).toBe(1);
    expect(metricValue(text, 'provider_pauses_total', { provider: `discord:${new URL(fakes.discord.url).host}` })).toBe(1);
  });

  it('refuses at send a channel URL on a private address when private targets are not allowed, sending nothing', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailEnabled: false } });
    const [plain, secrets] = configsOf(fakes).mattermost;
    await attachedChannel(bed.ds, down.monitor.id, 'mattermost', plain, secrets);
    await processor({ addressPolicy: allowPublicAddressesOnly })(down.offline);
    expect(fakes.mattermost.server.requests).toHaveLength(0);
    const [refused] = await deliveriesOf(bed.ds, down.incident.id);
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringMatching(/127\.0\.0\.1.*not allowed|not allowed.*127\.0\.0\.1/) });
  });
});
