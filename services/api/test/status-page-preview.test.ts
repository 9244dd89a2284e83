import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectError, expectMeta, useApiHarness } from './support/api-harness';

/*
 * The owner's preview of a page (docs/status-pages.md, "The owner's preview"):
 * `GET /api/v1/status-pages/{id}/preview` answers the very view visitors read at
 * `/api/v1/public/status-pages/{slug}`, for a page of the caller's organization, published or not.
 */
const h = useApiHarness({ PUBLIC_URL: 'https://status.example.test' });
let user: User;
let auth: string;
let otherAuth: string;
let shopId: number;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
  shopId = (await aMonitor(h.ds, user, { name: 'Shop', status: 'offline', inMaintenance: true })).id;
});

function owner(method: 'get' | 'post' | 'patch', path: string, as = auth): request.Test {
  return request(h.app)[method](path).set('Authorization', as);
}

async function aPage(published: boolean): Promise<number> {
  const api = await aMonitor(h.ds, user, { name: 'API', status: 'online' });
  const res = await owner('post', '/api/v1/status-pages').send({ slug: 'acme', title: 'Acme', monitor_ids: [shopId, api.id], published });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function anIncident(pageId: number, body: Record<string, unknown>): Promise<number> {
  const res = await owner('post', `/api/v1/status-pages/${pageId}/incidents`).send({
    title: 'Checkout errors',
    impact: 'major',
    message: 'Looking into it',
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** An open incident with two updates, a draft, one resolved yesterday, and maintenance over Shop in progress. */
async function aBusyPage(published: boolean): Promise<{ pageId: number; open: number; draft: number; past: number }> {
  const pageId = await aPage(published);
  const open = await anIncident(pageId, { monitor_ids: [shopId], message: 'Some **payments** fail' });
  await owner('post', `/api/v1/status-pages/${pageId}/incidents/${open}/updates`)
    .send({ status: 'identified', message: 'A bad deploy' })
    .expect(201);
  const draft = await anIncident(pageId, { title: 'Not for visitors', published: false });
  const past = await anIncident(pageId, {
    title: 'Yesterday',
    impact: 'minor',
    status: 'resolved',
    started_at: new Date(Date.now() - 86_400_000).toISOString(),
  });
  await owner('post', '/api/v1/maintenance-windows')
    .send({
      name: 'Upgrade',
      monitor_ids: [shopId],
      starts_at: new Date(Date.now() - 1_800_000).toISOString(),
      duration_minutes: 60,
      repeat: 'none',
      timezone: 'UTC',
    })
    .expect(201);
  return { pageId, open, draft, past };
}

const withoutReadTime = (page: Record<string, unknown>): Record<string, unknown> => ({ ...page, updated_at: undefined });

describe('GET /status-pages/{id}/preview', () => {
  it('answers the same view as the public page of a published page', async () => {
    const { pageId } = await aBusyPage(true);
    const preview = await owner('get', `/api/v1/status-pages/${pageId}/preview`);
    expect(preview.status).toBe(200);
    expectMeta(preview);
    const visitors = await request(h.app).get('/api/v1/public/status-pages/acme').expect(200);
    expect(withoutReadTime(preview.body.data)).toEqual(withoutReadTime(visitors.body.data));
  });

  it('shows an unpublished page: the banner impact, the open incident with its timeline, maintenance, the monitors, the past days', async () => {
    const { pageId, open, past } = await aBusyPage(false);
    await request(h.app).get('/api/v1/public/status-pages/acme').expect(404);

    const res = await owner('get', `/api/v1/status-pages/${pageId}/preview`);
    expect(res.status).toBe(200);
    const page = res.body.data;
    expect(page).toMatchObject({ slug: 'acme', title: 'Acme', status: 'operational', impact: 'major' });
    expect(page.incidents).toHaveLength(1);
    expect(page.incidents[0]).toMatchObject({
      id: open,
      status: 'identified',
      monitors: ['Shop'],
      url: `https://status.example.test/status/acme/incidents/${open}`,
    });
    expect(page.incidents[0].updates.map((u: { status: string; message_html: string }) => [u.status, u.message_html.trim()])).toEqual([
      ['identified', '<p>A bad deploy</p>'],
      ['investigating', '<p>Some <strong>payments</strong> fail</p>'],
    ]);
    expect(page.maintenance).toEqual([
      { name: 'Upgrade', status: 'in_progress', starts_at: expect.any(String), ends_at: expect.any(String), monitors: ['Shop'] },
    ]);
    // Shop is down during the planned work: shown as Maintenance, not counted as an outage.
    expect(page.monitors.map((m: { name: string; display_status: string }) => [m.name, m.display_status])).toEqual([
      ['Shop', 'maintenance'],
      ['API', 'online'],
    ]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const pastDay = page.past_incidents.find((d: { date: string }) => d.date === yesterday);
    expect(pastDay.incidents.map((i: { id: number; status: string }) => [i.id, i.status])).toEqual([[past, 'resolved']]);
  });

  it('leaves drafts out, as visitors never see them', async () => {
    const { pageId, draft } = await aBusyPage(false);
    const res = await owner('get', `/api/v1/status-pages/${pageId}/preview`).expect(200);
    const ids = [...res.body.data.incidents, ...res.body.data.past_incidents.flatMap((d: { incidents: unknown[] }) => d.incidents)].map(
      (i: { id: number }) => i.id,
    );
    expect(ids).not.toContain(draft);
    expect(res.text).not.toContain('Not for visitors');
    // Published, it shows at once: the preview is never cached.
    await owner('patch', `/api/v1/status-pages/${pageId}/incidents/${draft}`).send({ published: true }).expect(200);
    const after = await owner('get', `/api/v1/status-pages/${pageId}/preview`).expect(200);
    expect(after.body.data.incidents.map((i: { id: number }) => i.id)).toContain(draft);
  });

  it("answers 404 STATUS_PAGE_NOT_FOUND for another organization's page, an unknown id and a malformed one", async () => {
    const { pageId } = await aBusyPage(true);
    const other = await owner('get', `/api/v1/status-pages/${pageId}/preview`, otherAuth);
    expectError(other, 404, 'STATUS_PAGE_NOT_FOUND');
    expect(other.text).not.toContain('Acme');
    expect(other.text).not.toContain('Checkout errors');
    expectError(await owner('get', `/api/v1/status-pages/${pageId + 1000}/preview`), 404, 'STATUS_PAGE_NOT_FOUND');
    expectError(await owner('get', '/api/v1/status-pages/abc/preview'), 404, 'STATUS_PAGE_NOT_FOUND');
  });
});
