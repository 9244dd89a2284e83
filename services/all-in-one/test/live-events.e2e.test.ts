import IORedis from 'ioredis';
import { answer, startFakeHttpServer, waitFor, type FakeHttpServer } from '@uptime/testing';
import { liveChannel, type LiveEvent } from '@uptime/queues';
import { aMonitorThroughApi } from './support/api-monitor';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(120_000);

/**
 * What the workers publish for open pages (docs/web.md, "Live updates"): the check-worker each
 * recorded check with its monitor's state and each status change, the notifier each notification,
 * on the monitor's organization's channel and no other. api + check-worker + notifier in one
 * process, a monitor checked every second against a local target.
 */
describe('live events, check-worker and notifier', () => {
  let stack: InProcessStack;
  let target: FakeHttpServer;
  let subscriber: IORedis;
  const heard: { channel: string; event: LiveEvent }[] = [];

  beforeAll(async () => {
    stack = await startInProcessStack();
    target = await startFakeHttpServer(answer(200, 'ok'));
    subscriber = new IORedis(stack.config.redis.url);
    subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => heard.push({ channel, event: JSON.parse(message) as LiveEvent }));
    await subscriber.psubscribe(`${stack.config.redis.queuePrefix}:live:*`);
  });

  afterAll(async () => {
    await subscriber?.quit();
    await stack?.close();
    await target?.close();
  });

  it('publishes the checks, the status change and the notification of a monitor going down, on its organization\'s channel', async () => {
    const { id } = await aMonitorThroughApi(stack, { name: 'Shop', url: `${target.url}/health` });
    const [{ organization_id: organizationId }] = (await stack.ds.query('SELECT organization_id FROM monitors WHERE id = $1', [id])) as { organization_id: number }[];
    const channel = liveChannel(stack.config.redis.queuePrefix, organizationId!);
    const checksOf = () => heard.flatMap((h) => (h.event.type === 'checks' ? h.event.checks : [])).filter((c) => c.monitor_id === id);
    await waitFor(async () => checksOf().some((c) => c.monitor_status === 'online'), { what: 'an up check of Shop, online', timeoutMs: 20_000 });
    expect(checksOf().find((c) => c.monitor_status === 'online')).toEqual({
      monitor_id: id,
      checked_at: expect.stringMatching(/Z$/),
      result: 'up',
      response_time: expect.any(Number),
      status_code: 200,
      error: null,
      packet_loss: null,
      dns_answers: null,
      monitor_status: 'online',
      in_maintenance: false,
    });

    target.respond(answer(500, 'boom'));
    await waitFor(async () => heard.some((h) => h.event.type === 'notification' && h.event.monitor_id === id), { what: "Shop's downtime notification", timeoutMs: 20_000 });
    expect(checksOf().some((c) => c.result === 'down' && c.monitor_status === 'offline')).toBe(true);
    // A failed check carries its status code and error as they are stored (what a bead's tooltip says).
    const [stored] = (await stack.ds.query(`SELECT status_code, error FROM check_results WHERE monitor_id = $1 AND NOT ok ORDER BY scheduled_at LIMIT 1`, [id])) as { status_code: number; error: string }[];
    expect(stored).toEqual({ status_code: 500, error: 'Expected status 2xx, got 500' });
    expect(checksOf().find((c) => c.result === 'down')).toMatchObject({ status_code: 500, error: stored!.error });
    expect(heard.filter((h) => h.event.type === 'status' && h.event.monitor_id === id).map((h) => h.event)).toContainEqual({ type: 'status', monitor_id: id, from: 'online', to: 'offline' });
    const [notification] = (await stack.ds.query(`SELECT id FROM notifications WHERE monitor_id = $1 AND type = 'downtime'`, [id])) as { id: number }[];
    expect(heard.find((h) => h.event.type === 'notification')?.event).toEqual({ type: 'notification', monitor_id: id, notification_id: notification!.id, notification_type: 'downtime' });
    // Every event of this monitor went to its organization's channel only.
    expect(new Set(heard.map((h) => h.channel))).toEqual(new Set([channel]));
  });
});
