import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

/*
 * What the public reads of a page's incidents and maintenance (docs/status-pages.md, "The public
 * page"): open incidents with their timeline first, then maintenance, then the monitors, then the
 * past 90 days of incidents, each linking to its own page; the banner for the worst open impact.
 */
const h = useApiHarness({ PUBLIC_URL: 'https://status.example.test' });
let user: User;
let auth: string;
let pageId: number;
let shopId: number;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
  const api = await aMonitor(h.ds, user, { name: 'API', status: 'online' });
  shopId = shop.id;
  const res = await owner('post', '/api/v1/status-pages').send({ slug: 'acme', title: 'Acme', monitor_ids: [shop.id, api.id] });
  expect(res.status).toBe(201);
  pageId = res.body.data.id;
});

function owner(method: 'get' | 'post' | 'patch' | 'delete', path: string): request.Test {
  return request(h.app)[method](path).set('Authorization', auth);
}

async function anIncident(body: Record<string, unknown>): Promise<number> {
  const res = await owner('post', `/api/v1/status-pages/${pageId}/incidents`).send({
    title: 'Checkout errors',
    impact: 'major',
    message: 'Looking into it',
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function aWindow(name: string, startsInMs: number, minutes = 60): Promise<void> {
  const res = await owner('post', '/api/v1/maintenance-windows').send({
    name,
    monitor_ids: [shopId],
    starts_at: new Date(Date.now() + startsInMs).toISOString(),
    duration_minutes: minutes,
    repeat: 'none',
    timezone: 'UTC',
  });
  expect(res.status).toBe(201);
}

const publicJson = () => request(h.app).get('/api/v1/public/status-pages/acme');
const publicHtml = () => request(h.app).get('/status/acme');
const today = () => new Date().toISOString().slice(0, 10);

describe('the public JSON', () => {
  it('shows open incidents with their timeline, maintenance, and 90 days of incidents; the worst open impact', async () => {
    const open = await anIncident({ monitor_ids: [shopId], message: 'Some **payments** fail' });
    await owner('post', `/api/v1/status-pages/${pageId}/incidents/${open}/updates`)
      .send({ status: 'identified', message: 'A bad [deploy](https://example.com/d)' })
      .expect(201);
    const minor = await anIncident({ impact: 'minor', title: 'Slow search' });
    const past = await anIncident({
      impact: 'critical',
      title: 'Yesterday',
      started_at: new Date(Date.now() - 86_400_000).toISOString(),
      status: 'resolved',
    });
    await aWindow('Upgrade now', -1_800_000);
    await aWindow('Upgrade soon', 3 * 86_400_000);
    await aWindow('Upgrade later', 10 * 86_400_000);

    const res = await publicJson();
    expect(res.status).toBe(200);
    const page = res.body.data;
    expect(page.impact).toBe('major');
    expect(page.incidents.map((i: { id: number }) => i.id)).toEqual([minor, open]);
    expect(page.incidents[1]).toEqual({
      id: open,
      title: 'Checkout errors',
      impact: 'major',
      status: 'identified',
      started_at: expect.any(String),
      resolved_at: null,
      monitors: ['Shop'],
      url: `https://status.example.test/status/acme/incidents/${open}`,
      updates: [
        {
          id: expect.any(Number),
          status: 'identified',
          message: 'A bad [deploy](https://example.com/d)',
          message_html: '<p>A bad <a href="https://example.com/d" rel="nofollow noopener">deploy</a></p>\n',
          created_at: expect.any(String),
        },
        {
          id: expect.any(Number),
          status: 'investigating',
          message: 'Some **payments** fail',
          message_html: '<p>Some <strong>payments</strong> fail</p>\n',
          created_at: expect.any(String),
        },
      ],
    });
    expect(page.maintenance).toEqual([
      { name: 'Upgrade now', status: 'in_progress', starts_at: expect.any(String), ends_at: expect.any(String), monitors: ['Shop'] },
      { name: 'Upgrade soon', status: 'scheduled', starts_at: expect.any(String), ends_at: expect.any(String), monitors: ['Shop'] },
    ]);
    expect(page.past_incidents).toHaveLength(90);
    expect(page.past_incidents[0].date).toBe(today());
    expect(page.past_incidents[0].incidents.map((i: { id: number }) => i.id)).toEqual([minor, open]);
    expect(page.past_incidents[1].incidents).toEqual([
      expect.objectContaining({
        id: past,
        title: 'Yesterday',
        impact: 'critical',
        status: 'resolved',
        url: `https://status.example.test/status/acme/incidents/${past}`,
      }),
    ]);
  });

  it('leaves out resolved incidents older than 90 days and another page’s', async () => {
    const old = await anIncident({ started_at: new Date(Date.now() - 91 * 86_400_000).toISOString(), status: 'resolved' });
    const m = await aMonitor(h.ds, user);
    const other = await owner('post', '/api/v1/status-pages').send({ slug: 'other', title: 'Other', monitor_ids: [m.id] });
    await owner('post', `/api/v1/status-pages/${other.body.data.id}/incidents`)
      .send({ title: 'Elsewhere', impact: 'critical', message: 'M' })
      .expect(201);
    const page = (await publicJson()).body.data;
    expect(page.impact).toBeNull();
    expect(page.incidents).toEqual([]);
    expect(JSON.stringify(page.past_incidents)).not.toContain(`"id":${old}`);
    expect(JSON.stringify(page)).not.toContain('Elsewhere');
  });

  it('shows an incident, an update and a deletion at once, though the page was cached', async () => {
    expect((await publicJson()).body.data.incidents).toEqual([]);
    const id = await anIncident({});
    expect((await publicJson()).body.data.incidents.map((i: { id: number }) => i.id)).toEqual([id]);
    await owner('post', `/api/v1/status-pages/${pageId}/incidents/${id}/updates`)
      .send({ status: 'resolved', message: 'Fixed' })
      .expect(201);
    const after = (await publicJson()).body.data;
    expect(after.incidents).toEqual([]);
    expect(after.past_incidents[0].incidents[0]).toMatchObject({ id, status: 'resolved' });
    await owner('delete', `/api/v1/status-pages/${pageId}/incidents/${id}`).expect(200);
    expect((await publicJson()).body.data.past_incidents[0].incidents).toEqual([]);
  });
});

describe('the public HTML', () => {
  it('reads open incidents first, then maintenance, the monitors and past incidents; the banner says the worst impact', async () => {
    await anIncident({ impact: 'critical', message: 'All <b>down</b> <script>alert(1)</script> [x](javascript:alert(1))' });
    await aWindow('Database upgrade', 2 * 86_400_000);
    const res = await publicHtml();
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain('<p class="banner banner-critical" role="status">Critical outage</p>');
    const order = ['id="incidents"', 'id="maintenance"', 'id="m0"', 'id="past-incidents"'].map((marker) => html.indexOf(marker));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('All &lt;b&gt;down&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1))');
    // The one script element is the page's own file; the message's became text.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/status/assets/status-page.js" defer>']);
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<strong>Scheduled</strong>: Database upgrade');
  });

  it('takes the worse of the monitors and the incidents for the banner', async () => {
    await h.ds.query(`UPDATE monitors SET status = 'offline' WHERE id = $1`, [shopId]);
    await anIncident({ impact: 'minor' });
    expect((await publicHtml()).text).toContain('<p class="banner banner-outage" role="status">Outage</p>');
  });

  it('says so when there were no incidents in 90 days', async () => {
    expect((await publicHtml()).text).toContain('No incidents in the last 90 days.');
  });
});

describe('an incident’s own page', () => {
  it('is HTML and JSON with its whole timeline, a link back, and changes at once', async () => {
    const id = await anIncident({ title: 'Checkout <errors>' });
    const html = await request(h.app).get(`/status/acme/incidents/${id}`);
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect(html.text).toContain('<h1>Checkout &lt;errors&gt;</h1>');
    expect(html.text).toContain('<a href="/status/acme">Acme</a>');
    const json = await request(h.app).get(`/api/v1/public/status-pages/acme/incidents/${id}`);
    expect(json.status).toBe(200);
    expect(json.body.data).toMatchObject({
      page: { slug: 'acme', title: 'Acme' },
      incident: { id, title: 'Checkout <errors>', updates: [expect.objectContaining({ status: 'investigating' })] },
    });

    await owner('post', `/api/v1/status-pages/${pageId}/incidents/${id}/updates`)
      .send({ status: 'monitoring', message: 'Watching' })
      .expect(201);
    expect((await request(h.app).get(`/api/v1/public/status-pages/acme/incidents/${id}`)).body.data.incident.status).toBe('monitoring');
    expect((await request(h.app).get(`/status/acme/incidents/${id}`)).text).toContain('Watching');
  });

  it('is 404 for an unpublished page, another page’s incident, or a malformed id', async () => {
    const id = await anIncident({});
    const m = await aMonitor(h.ds, user);
    await owner('post', '/api/v1/status-pages')
      .send({ slug: 'other', title: 'Other', monitor_ids: [m.id] })
      .expect(201);
    for (const path of [`/other/incidents/${id}`, '/acme/incidents/abc', '/acme/incidents/0', '/acme/incidents/99999999999']) {
      const html = await request(h.app).get(`/status${path}`);
      expect(html.status).toBe(404);
      expect(html.text).toContain('Status page not found');
      const json = await request(h.app).get(`/api/v1/public/status-pages${path}`);
      expect({ status: json.status, code: json.body.error?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    // Read (and cached) while published; unpublishing drops it at once.
    expect((await request(h.app).get(`/status/acme/incidents/${id}`)).status).toBe(200);
    await owner('patch', `/api/v1/status-pages/${pageId}`).send({ published: false }).expect(200);
    expect((await request(h.app).get(`/status/acme/incidents/${id}`)).status).toBe(404);
  });
});
