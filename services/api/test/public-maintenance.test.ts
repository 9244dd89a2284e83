import request from 'supertest';
import type { Monitor, MonitorStatus, User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

/*
 * A monitor inside an active maintenance window is shown as Maintenance, not Down, wherever the
 * public (and the owner's dashboard) reads its state (docs/status-pages.md, docs/alert-rules.md).
 */

const h = useApiHarness();
let user: User;
let auth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
});

/**
 * A monitor in a one-hour window that began 30 minutes ago, made through the API; its
 * `in_maintenance` is what the check-worker records when a check falls in that window
 * (recordCheckBatch(), services/check-worker/test/maintenance-windows.test.ts).
 */
async function aMonitorInMaintenance(name: string, status: MonitorStatus): Promise<Monitor> {
  const m = await aMonitor(h.ds, user, { name, status, inMaintenance: true });
  const res = await request(h.app)
    .post('/api/v1/maintenance-windows')
    .set('Authorization', auth)
    .send({
      name: 'Upgrade',
      monitor_ids: [m.id],
      starts_at: new Date(Date.now() - 1_800_000).toISOString(),
      duration_minutes: 60,
      repeat: 'none',
      timezone: 'UTC',
    });
  expect(res.status).toBe(201);
  const detail = await request(h.app).get(`/api/v1/monitors/${m.id}`).set('Authorization', auth);
  expect(detail.body.data).toMatchObject({ status, in_maintenance: true, maintenance: [expect.objectContaining({ name: 'Upgrade' })] });
  return m;
}

async function aPage(slug: string, monitors: Monitor[]): Promise<void> {
  const res = await request(h.app)
    .post('/api/v1/status-pages')
    .set('Authorization', auth)
    .send({ slug, title: 'Acme', monitor_ids: monitors.map((m) => m.id) });
  expect(res.status).toBe(201);
}

describe('a monitor in maintenance on the public page', () => {
  it('is in_maintenance and displayed as maintenance in the JSON, keeps its status, and makes no outage', async () => {
    const down = await aMonitorInMaintenance('Database', 'offline');
    const up = await aMonitorInMaintenance('Cache', 'online');
    const fine = await aMonitor(h.ds, user, { name: 'Shop', status: 'online' });
    // A paused monitor is shown paused, whatever its last check fell in.
    const paused = await aMonitor(h.ds, user, { name: 'Old', status: 'paused', inMaintenance: true });
    await aPage('maint-json', [down, up, fine, paused]);

    const res = await request(h.app).get('/api/v1/public/status-pages/maint-json');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('operational');
    expect(
      res.body.data.monitors.map((m: { name: string; status: string; in_maintenance: boolean; display_status: string }) => [
        m.name,
        m.status,
        m.in_maintenance,
        m.display_status,
      ]),
    ).toEqual([
      ['Database', 'offline', true, 'maintenance'],
      ['Cache', 'online', true, 'maintenance'],
      ['Shop', 'online', false, 'online'],
      ['Old', 'paused', false, 'paused'],
    ]);
  });

  it('still makes an outage of another monitor that is down outside any window', async () => {
    const inWindow = await aMonitorInMaintenance('Database', 'offline');
    const down = await aMonitor(h.ds, user, { name: 'Shop', status: 'offline' });
    await aPage('maint-outage', [inWindow, down]);
    const res = await request(h.app).get('/api/v1/public/status-pages/maint-outage');
    expect(res.body.data.status).toBe('outage');
  });

  it('reads "Maintenance", not "Down", in the HTML', async () => {
    const down = await aMonitorInMaintenance('Database', 'offline');
    const other = await aMonitor(h.ds, user, { name: 'Shop', status: 'offline' });
    await aPage('maint-html', [down, other]);
    const res = await request(h.app).get('/status/maint-html');
    expect(res.status).toBe(200);
    const states = [...res.text.matchAll(/<h2 id="m\d+">([^<]+)<\/h2><p class="state state-(\w+)">([^<]+)<\/p>/g)].map((x) => x.slice(1));
    expect(states).toEqual([
      ['Database', 'maintenance', 'Maintenance'],
      ['Shop', 'offline', 'Down'],
    ]);
    const css = await request(h.app).get('/status/assets/status-page.css');
    expect(css.text).toMatch(/\.state-maintenance \{ color: var\(--maintenance\); \}/);
  });
});

describe('a monitor in maintenance on its status badge', () => {
  it('reads "status: maintenance" in blue', async () => {
    const m = await aMonitorInMaintenance('Database', 'offline');
    const created = await request(h.app).post(`/api/v1/monitors/${m.id}/badge`).set('Authorization', auth);
    expect(created.status).toBe(200);
    const res = await request(h.app)
      .get(new URL(created.body.data.status_url).pathname)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    const svg = String(res.body);
    expect(svg).toContain('aria-label="status: maintenance"');
    expect(svg).toContain('<title>status: maintenance</title>');
    expect(svg).toContain('fill="#0969da"');
    expect(svg).not.toContain('down');
  });
});

describe('a monitor in maintenance on the dashboard', () => {
  it('is marked in_maintenance among down_monitors, the others not', async () => {
    const inWindow = await aMonitorInMaintenance('Database', 'offline');
    const down = await aMonitor(h.ds, user, { name: 'Shop', status: 'offline' });
    const res = await request(h.app).get('/api/v1/dashboard').set('Authorization', auth);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.data.down_monitors.map((m: { id: number; in_maintenance: boolean }) => [m.id, m.in_maintenance]));
    expect(byId).toEqual(
      new Map([
        [inWindow.id, true],
        [down.id, false],
      ]),
    );
  });
});
