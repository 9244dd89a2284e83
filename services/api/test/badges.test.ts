import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import type { Monitor, MonitorStatus, User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness({ PUBLIC_URL: 'https://status.example.test' });
let user: User;
let auth: string;
let otherAuth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

interface Svg {
  role: string;
  label: string;
  title: string;
  texts: string[];
}

/** Parses an answer as SVG with an XML parser: well-formed, an <svg> root in the SVG namespace, and its accessible name. */
function parseSvg(res: request.Response): Svg {
  expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  const xml = res.body instanceof Buffer ? res.body.toString('utf8') : res.text;
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as { svg: Record<string, unknown> };
  const svg = doc.svg as { xmlns: string; role: string; 'aria-label': string; title: string; g: { text?: unknown }[] };
  expect(svg.xmlns).toBe('http://www.w3.org/2000/svg');
  const texts = svg.g.flatMap((g) => (g.text === undefined ? [] : Array.isArray(g.text) ? g.text : [g.text])).map((t) => (typeof t === 'object' ? String((t as { '#text': unknown })['#text']) : String(t)));
  return { role: svg.role, label: svg['aria-label'], title: String(svg.title), texts };
}

const svgGet = (path: string) => request(h.app).get(path).buffer(true).parse((res, done) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (text += c));
  res.on('end', () => done(null, Buffer.from(text)));
});

async function aBadge(monitor: Monitor, as = auth): Promise<{ badge_token: string; status_url: string; uptime_url: string }> {
  const res = await request(h.app).post(`/api/v1/monitors/${monitor.id}/badge`).set('Authorization', as);
  expect(res.status).toBe(200);
  expectMeta(res);
  return res.body.data;
}

const pathOf = (url: string): string => new URL(url).pathname;

describe('POST and DELETE /monitors/{id}/badge', () => {
  it('answers 200 with an unguessable token and the two badge URLs under PUBLIC_URL; only a hash is stored', async () => {
    const m = await aMonitor(h.ds, user);
    const badge = await aBadge(m);
    expect(badge.badge_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(badge).toEqual({
      badge_token: badge.badge_token,
      status_url: `https://status.example.test/badge/${badge.badge_token}/status.svg`,
      uptime_url: `https://status.example.test/badge/${badge.badge_token}/uptime.svg`,
    });
    const [row] = await h.ds.query(`SELECT token_hash FROM monitor_badges WHERE monitor_id = $1`, [m.id]);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(badge.badge_token);
  });

  it('replaces the token: the old one stops working at once', async () => {
    const m = await aMonitor(h.ds, user, { status: 'online' });
    const first = await aBadge(m);
    expect((await svgGet(pathOf(first.status_url))).status).toBe(200);
    const second = await aBadge(m);
    expect(second.badge_token).not.toBe(first.badge_token);
    expect((await svgGet(pathOf(first.status_url))).status).toBe(404);
    expect((await svgGet(pathOf(second.status_url))).status).toBe(200);
  });

  it('revokes: the badge answers 404 at once', async () => {
    const m = await aMonitor(h.ds, user);
    const badge = await aBadge(m);
    expect((await svgGet(pathOf(badge.uptime_url))).status).toBe(200);
    const res = await request(h.app).delete(`/api/v1/monitors/${m.id}/badge`).set('Authorization', auth);
    expect([res.status, res.body.message]).toEqual([200, 'Badge revoked']);
    expect((await svgGet(pathOf(badge.uptime_url))).status).toBe(404);
    const again = await request(h.app).delete(`/api/v1/monitors/${m.id}/badge`).set('Authorization', auth);
    expect([again.status, again.body.message]).toEqual([200, 'The monitor had no badge']);
  });

  it("answers 404 MONITOR_NOT_FOUND for another user's or an unknown monitor", async () => {
    const m = await aMonitor(h.ds, user);
    const badge = await aBadge(m);
    for (const [method, path] of [
      ['post', `/api/v1/monitors/${m.id}/badge`],
      ['delete', `/api/v1/monitors/${m.id}/badge`],
      ['post', '/api/v1/monitors/999999/badge'],
    ] as const) {
      const res = await request(h.app)[method](path).set('Authorization', otherAuth);
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, 'MONITOR_NOT_FOUND']);
    }
    expect((await svgGet(pathOf(badge.status_url))).status).toBe(200);
  });

  it('GET says whether the monitor has a badge, and since when; never its token', async () => {
    const m = await aMonitor(h.ds, user);
    const state = async (as = auth) => request(h.app).get(`/api/v1/monitors/${m.id}/badge`).set('Authorization', as);
    const none = await state();
    expect([none.status, none.body.data]).toEqual([200, { exists: false, created_at: null }]);
    expectMeta(none);
    const badge = await aBadge(m);
    const some = await state();
    expect(some.body.data).toEqual({ exists: true, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect(Date.now() - Date.parse(some.body.data.created_at)).toBeLessThan(60_000);
    expect(some.text).not.toContain(badge.badge_token);
    expect((await request(h.app).delete(`/api/v1/monitors/${m.id}/badge`).set('Authorization', auth)).status).toBe(200);
    expect((await state()).body.data).toEqual({ exists: false, created_at: null });
    const other = await state(otherAuth);
    expect([other.status, other.body.error?.code]).toEqual([404, 'MONITOR_NOT_FOUND']);
  });

  it('goes with its monitor', async () => {
    const m = await aMonitor(h.ds, user);
    const badge = await aBadge(m);
    expect((await svgGet(pathOf(badge.status_url))).status).toBe(200);
    expect((await request(h.app).delete(`/api/v1/monitors/${m.id}`).set('Authorization', auth)).status).toBe(200);
    expect((await svgGet(pathOf(badge.status_url))).status).toBe(404);
  });
});

describe('GET /badge/{token}/status.svg and uptime.svg', () => {
  it.each([
    ['online', 'up'],
    ['warning', 'degraded'],
    ['offline', 'down'],
    ['paused', 'paused'],
    ['pending', 'pending'],
  ] as [MonitorStatus, string][])('shows a %s monitor as "%s", as valid SVG with an accessible name', async (status, value) => {
    const m = await aMonitor(h.ds, user, { status });
    const res = await svgGet(pathOf((await aBadge(m)).status_url));
    expect(res.status).toBe(200);
    const svg = parseSvg(res);
    expect(svg).toEqual({ role: 'img', label: `status: ${value}`, title: `status: ${value}`, texts: ['status', 'status', value, value] });
  });

  it('shows the uptime of each period, 30d by default, "no data" without checks', async () => {
    const m = await aMonitor(h.ds, user, { status: 'online' });
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    await h.ds.query(`INSERT INTO check_rollups_1d (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 200, 199, 0, 0, '{}')`, [m.id, new Date(day)]);
    await h.ds.query(`INSERT INTO check_rollups_1d (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 100, 0, 0, 0, '{}')`, [m.id, new Date(day - 60 * 86_400_000)]);
    const url = pathOf((await aBadge(m)).uptime_url);
    const label = async (query: string): Promise<string> => {
      const res = await svgGet(`${url}${query}`);
      expect(res.status).toBe(200);
      return parseSvg(res).label;
    };
    expect(await label('')).toBe('uptime 30d: 99.50%');
    expect(await label('?period=30d')).toBe('uptime 30d: 99.50%');
    expect(await label('?period=90d')).toBe('uptime 90d: 66.33%');
    expect(await label('?period=24h')).toBe('uptime 24h: no data');
  });

  it('refuses an unknown period with 400 VALIDATION_ERROR', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await request(h.app).get(`${pathOf((await aBadge(m)).uptime_url)}?period=1y`);
    expect([res.status, res.body.error?.code, Object.keys(res.body.error?.details ?? {})]).toEqual([400, 'VALIDATION_ERROR', ['period']]);
  });

  it('answers an unknown or malformed token with a 404 SVG', async () => {
    // A malformed percent-escape too: an <img> reads the answer, so it is the SVG, not the API's JSON error.
    for (const path of [`/badge/${'A'.repeat(43)}/status.svg`, '/badge/short/uptime.svg', `/badge/${'b'.repeat(43)}/uptime.svg?period=7d`, '/badge/%FF/status.svg', '/badge/%E0%A4%A/uptime.svg']) {
      const res = await svgGet(path);
      expect([path, res.status, res.headers['content-type']]).toEqual([path, 404, expect.stringMatching(/^image\/svg\+xml/)]);
      expect(parseSvg(res)).toEqual(expect.objectContaining({ role: 'img', label: 'badge: not found', title: 'badge: not found' }));
    }
  });

  it('answers with Cache-Control, an ETag, 304 to If-None-Match, and a CSP that runs nothing', async () => {
    const m = await aMonitor(h.ds, user, { status: 'online' });
    const url = pathOf((await aBadge(m)).status_url);
    const first = await svgGet(url);
    expect(first.headers['cache-control']).toBe('public, max-age=30');
    expect(first.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const again = await svgGet(url).set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
  });

  it('may be embedded by any site (Cross-Origin-Resource-Policy: cross-origin), the "not found" badge too; the rest stays same-origin', async () => {
    const m = await aMonitor(h.ds, user, { status: 'online' });
    const badge = await aBadge(m);
    for (const path of [pathOf(badge.status_url), `${pathOf(badge.uptime_url)}?period=7d`, `/badge/${'A'.repeat(43)}/status.svg`, '/badge/%FF/status.svg']) {
      const res = await svgGet(path);
      expect([path, res.headers['cross-origin-resource-policy']]).toEqual([path, 'cross-origin']);
    }
    // A refused period is still the badge route's answer; the API, the status page and its stylesheet are not meant for other sites.
    expect((await request(h.app).get(`${pathOf(badge.uptime_url)}?period=1y`)).headers['cross-origin-resource-policy']).toBe('cross-origin');
    for (const path of ['/api/v1/monitors', '/status/nothing-here', '/status/assets/status-page.css', '/api/v1/public/status-pages/nothing-here']) {
      const res = await request(h.app).get(path).set('Authorization', auth);
      expect([path, res.headers['cross-origin-resource-policy']]).toEqual([path, 'same-origin']);
    }
  });
});
