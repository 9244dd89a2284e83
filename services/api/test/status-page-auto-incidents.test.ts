import request from 'supertest';
import { createLogger } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import { enqueue, JOBS, openQueue, QueueName } from '@uptime/queues';
import type { Monitor, User } from '@uptime/db';
import { aCaller, aMonitor, startFakeSendGrid, waitFor, type FakeSendGrid, type SentMail } from '@uptime/testing';
import { expectError, useApiHarness } from './support/api-harness';

/*
 * Draft incidents (docs/status-pages.md, "Draft incidents"): a page with `auto_incidents` gets a
 * draft when one of its monitors goes offline, through the status-changed event a notifier
 * handles as in production; drafts stay out of everything visitors and subscribers see until
 * the owner publishes one, which tells the subscribers once.
 */
const PUBLIC_URL = 'https://status.example.test';
const h = useApiHarness({ PUBLIC_URL });

let sendgrid: FakeSendGrid;
let notifier: Notifier;
let queue: ReturnType<typeof openQueue<typeof QueueName.statusChanges>>;
beforeAll(async () => {
  sendgrid = await startFakeSendGrid();
  notifier = await startNotifier({
    config: { ...h.config, mail: { from: 'status@example.test', sendgrid: { apiKey: sendgrid.apiKey, apiUrl: sendgrid.url } } },
    dataSource: h.ds,
    logger: createLogger({ level: h.config.logLevel, service: 'notifier-test' }),
  });
  queue = openQueue(QueueName.statusChanges, { connection: h.redis, prefix: h.config.redis.queuePrefix });
});
afterAll(async () => {
  await queue?.close();
  await notifier?.close();
  await sendgrid?.close();
});

let user: User;
let auth: string;
beforeEach(async () => {
  sendgrid.mails.length = 0;
  ({ user, auth } = await aCaller(h.ds));
});

const owner = (method: 'get' | 'post' | 'patch' | 'delete', path: string): request.Test =>
  request(h.app)[method](path).set('Authorization', auth);

async function aPage(slug: string, monitors: Monitor[], autoIncidents: boolean): Promise<number> {
  const res = await owner('post', '/api/v1/status-pages').send({
    slug,
    title: slug,
    monitor_ids: monitors.map((m) => m.id),
    auto_incidents: autoIncidents,
  });
  expect(res.status).toBe(201);
  expect(res.body.data.auto_incidents).toBe(autoIncidents);
  return res.body.data.id;
}

/**
 * What the check-worker leaves when `monitor` goes offline (its open downtime, the status_events
 * row), and the status-changed job it publishes; `times` deliveries of the same job id, as a
 * redelivery would. Returns the downtime's id.
 */
async function goesOffline(monitor: Monitor, options: { startedAt?: Date; inMaintenance?: boolean; times?: number } = {}): Promise<number> {
  const startedAt = options.startedAt ?? new Date(Date.now() - 60_000);
  const [downtime] = (await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, error) VALUES ($1, $2, 'HTTP 503') RETURNING id`, [
    monitor.id,
    startedAt,
  ])) as {
    id: number;
  }[];
  await h.ds.query(`UPDATE monitors SET status = 'offline', open_incident_id = $2, in_maintenance = $3 WHERE id = $1`, [
    monitor.id,
    downtime!.id,
    options.inMaintenance ?? false,
  ]);
  const [event] = (await h.ds.query(
    `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, published_at) VALUES ($1, 'online', 'offline', $2, now()) RETURNING id`,
    [monitor.id, downtime!.id],
  )) as { id: string }[];
  for (let i = 0; i < (options.times ?? 1); i += 1) {
    await enqueue(queue, JOBS.statusChanged, {
      eventId: String(event!.id),
      monitorId: monitor.id,
      from: 'online',
      to: 'offline',
      incidentId: downtime!.id,
    });
  }
  // Once the notifier has handled it, its downtime alert exists.
  await waitFor(
    async () => ((await h.ds.query(`SELECT 1 FROM notifications WHERE incident_id = $1`, [downtime!.id])) as unknown[]).length > 0 || null,
    {
      what: `the offline event of ${monitor.name} handled`,
    },
  );
  return downtime!.id;
}

async function recovers(monitor: Monitor, downtimeId: number): Promise<void> {
  await h.ds.query(`UPDATE incidents SET resolved_at = now() WHERE id = $1`, [downtimeId]);
  await h.ds.query(`UPDATE monitors SET status = 'online', open_incident_id = NULL WHERE id = $1`, [monitor.id]);
}

interface OwnerIncident {
  id: number;
  title: string;
  impact: string;
  status: string;
  published: boolean;
  monitor_ids: number[];
  started_at: string;
  updates: { status: string; message: string }[];
}

async function incidentsOf(pageId: number): Promise<OwnerIncident[]> {
  const res = await owner('get', `/api/v1/status-pages/${pageId}/incidents`);
  expect(res.status).toBe(200);
  return res.body.data as OwnerIncident[];
}

const publicJson = async (slug: string): Promise<string> =>
  JSON.stringify((await request(h.app).get(`/api/v1/public/status-pages/${slug}`)).body);

describe('auto_incidents on the owner API', () => {
  it('is false by default, and set on create and by PATCH', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const res = await owner('post', '/api/v1/status-pages').send({ slug: 'defaulted', title: 'T', monitor_ids: [shop.id] });
    expect(res.body.data.auto_incidents).toBe(false);
    const patched = await owner('patch', `/api/v1/status-pages/${res.body.data.id}`).send({ auto_incidents: true });
    expect(patched.body.data.auto_incidents).toBe(true);
    expect((await owner('get', `/api/v1/status-pages/${res.body.data.id}`)).body.data.auto_incidents).toBe(true);
  });

  it('refuses a value that is not a boolean, naming it', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop' });
    const res = await owner('post', '/api/v1/status-pages').send({
      slug: 'strict-auto',
      title: 'T',
      monitor_ids: [shop.id],
      auto_incidents: 'yes',
    });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual(['auto_incidents']);
  });
});

describe('a monitor going offline', () => {
  it('opens one draft on each page with auto_incidents that shows it, however often the event comes, and none elsewhere', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const mail = await aMonitor(h.ds, user, { name: 'Mail', status: 'online' });
    const auto = await aPage('auto-one', [mail, shop], true);
    const auto2 = await aPage('auto-two', [shop], true);
    const manual = await aPage('manual', [shop], false);
    const other = await aPage('other-monitor', [mail], true);
    const startedAt = new Date(Date.now() - 120_000);

    await goesOffline(shop, { startedAt, times: 3 });

    for (const pageId of [auto, auto2]) {
      const drafts = await incidentsOf(pageId);
      expect(drafts).toEqual([
        expect.objectContaining({
          title: 'Shop is down',
          impact: 'major',
          status: 'investigating',
          published: false,
          monitor_ids: [shop.id],
          started_at: startedAt.toISOString(),
          updates: [expect.objectContaining({ status: 'investigating', message: expect.stringContaining('We are investigating') })],
        }),
      ]);
    }
    expect(await incidentsOf(manual)).toEqual([]);
    expect(await incidentsOf(other)).toEqual([]);
  });

  it('opens no new draft while one for that monitor is open, and one per outage after that', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const pageId = await aPage('per-outage', [shop], true);
    const first = await goesOffline(shop);
    await recovers(shop, first);
    // The first draft is still open: the second outage adds nothing to it.
    await goesOffline(shop);
    expect(await incidentsOf(pageId)).toHaveLength(1);

    const [draft] = await incidentsOf(pageId);
    const resolved = await owner('post', `/api/v1/status-pages/${pageId}/incidents/${draft!.id}/updates`).send({
      status: 'resolved',
      message: 'Fine again.',
    });
    expect(resolved.status).toBe(201);
    const [{ open }] = (await h.ds.query(`SELECT open_incident_id AS open FROM monitors WHERE id = $1`, [shop.id])) as { open: number }[];
    await recovers(shop, open);
    await goesOffline(shop);
    const after = await incidentsOf(pageId);
    expect(after).toHaveLength(2);
    expect(after.map((i) => [i.status, i.published])).toEqual([
      ['investigating', false],
      ['resolved', false],
    ]);
  });

  it('opens no draft for a monitor in maintenance: planned work is not an outage', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const pageId = await aPage('planned', [shop], true);
    await goesOffline(shop, { inMaintenance: true });
    expect(await incidentsOf(pageId)).toEqual([]);
  });
});

describe('drafts and visitors', () => {
  it('keeps a draft out of the public JSON, HTML, incident page and feeds, and the banner', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const pageId = await aPage('hidden-draft', [shop], true);
    await goesOffline(shop);
    const [draft] = await incidentsOf(pageId);
    // The owner's own update on the draft stays as hidden as the draft.
    expect(
      (
        await owner('post', `/api/v1/status-pages/${pageId}/incidents/${draft!.id}/updates`).send({
          status: 'identified',
          message: 'Secret cause',
        })
      ).status,
    ).toBe(201);

    const json = JSON.parse(await publicJson('hidden-draft')) as {
      data: { incidents: unknown[]; impact: string | null; past_incidents: { incidents: unknown[] }[] };
    };
    expect(json.data.incidents).toEqual([]);
    expect(json.data.impact).toBeNull();
    expect(json.data.past_incidents.flatMap((d) => d.incidents)).toEqual([]);
    const html = (await request(h.app).get('/status/hidden-draft')).text;
    expect(html).not.toContain('Shop is down');
    expect(html).not.toContain('Secret cause');
    expect((await request(h.app).get(`/status/hidden-draft/incidents/${draft!.id}`)).status).toBe(404);
    expect((await request(h.app).get(`/api/v1/public/status-pages/hidden-draft/incidents/${draft!.id}`)).status).toBe(404);
    for (const feed of ['feed.atom', 'feed.rss']) {
      const res = await request(h.app).get(`/status/hidden-draft/${feed}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('Shop is down');
    }
  });

  it('tells subscribers nothing of a draft, and once when it is published; then visitors see it', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const pageId = await aPage('told-once', [shop], true);
    await h.ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, unsubscribe_token, confirmed_at) VALUES ($1, 'ada@example.com', 'confirmed', 'tok-ada-auto-000000000000', now())`,
      [pageId],
    );
    // Warm the cache: publishing must drop it.
    expect(await publicJson('told-once')).not.toContain('Shop is down');
    await goesOffline(shop);
    const [draft] = await incidentsOf(pageId);
    await owner('post', `/api/v1/status-pages/${pageId}/incidents/${draft!.id}/updates`).send({
      status: 'identified',
      message: 'The **database** is full.',
    });
    const [{ events }] = (await h.ds.query(`SELECT count(*)::int AS events FROM status_page_events WHERE status_page_id = $1`, [
      pageId,
    ])) as { events: number }[];
    expect(events).toBe(0);

    const published = await owner('patch', `/api/v1/status-pages/${pageId}/incidents/${draft!.id}`).send({
      published: true,
      title: 'Shop unavailable',
    });
    expect(published.status).toBe(200);
    expect(published.body.data).toEqual(expect.objectContaining({ published: true, title: 'Shop unavailable' }));
    const mails = await waitFor(
      () => {
        const to = sendgrid.mails.filter((m: SentMail) => m.to === 'ada@example.com');
        return to.length > 0 ? to : null;
      },
      { what: 'the published incident told' },
    );
    expect(mails[0]!.text).toContain('Shop unavailable');
    // It tells the draft's latest update, as a new incident tells its first.
    expect(mails[0]!.text).toContain('Status: Identified');
    expect(mails[0]!.text).toContain('The **database** is full.');
    expect(await publicJson('told-once')).toContain('Shop unavailable');
    expect((await request(h.app).get(`/status/told-once/incidents/${draft!.id}`)).status).toBe(200);

    // Publishing again changes nothing and tells nobody again; a draft it cannot become.
    expect((await owner('patch', `/api/v1/status-pages/${pageId}/incidents/${draft!.id}`).send({ published: true })).status).toBe(200);
    expectError(
      await owner('patch', `/api/v1/status-pages/${pageId}/incidents/${draft!.id}`).send({ published: false }),
      409,
      'INVALID_STATE',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sendgrid.mails.filter((m: SentMail) => m.to === 'ada@example.com')).toHaveLength(1);
    const [{ told }] = (await h.ds.query(`SELECT count(*)::int AS told FROM status_page_events WHERE status_page_id = $1`, [pageId])) as {
      told: number;
    }[];
    expect(told).toBe(1);
  });

  it('lets the owner create a draft by hand, answered with published false', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    const pageId = await aPage('hand-draft', [shop], false);
    const res = await owner('post', `/api/v1/status-pages/${pageId}/incidents`).send({
      title: 'Planned words',
      impact: 'minor',
      message: 'Not yet',
      published: false,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.published).toBe(false);
    expect(await publicJson('hand-draft')).not.toContain('Planned words');
  });
});
