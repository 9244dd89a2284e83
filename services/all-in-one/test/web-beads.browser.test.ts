import type { Page, Request } from 'playwright-core';
import { answer } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What docs/web.md promises: a recorded result is on the open page within this long. */
const WITHIN_MS = 2_000;
const MINUTE = 60_000;

/**
 * Beads (docs/web.md, "Beads"): the list's "Latest checks" column and the dashboard's card show a
 * monitor's latest checks, each a bead with its colour, a tooltip (time, result, response time)
 * and a name for the keyboard; a check the check-worker records is added from the live stream,
 * with no request. Headless Chromium against the real stack, by role and accessible name.
 */
describe('the web app: beads of the latest checks', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  let shopId: number;
  /** The API requests the page made (the stream aside), since the last `requests.length = 0`. */
  const requests: string[] = [];

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '7373', email: 'grace@example.com', name: 'Grace Hopper' }, target: answer(200, 'ok') });
    ({ stack, page, appUrl } = app);
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/v1/') && url.pathname !== '/api/v1/live') requests.push(`${r.method()} ${url.pathname}`);
    });
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, signIn, checkPage } = appDriver(() => page);
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  const beadsOf = (name: string) => page.getByRole('group', { name: `Latest checks of ${name}`, exact: true }).getByRole('button');
  const focusedName = (): Promise<string | null> => page.evaluate(`document.activeElement?.getAttribute('aria-label') ?? null`);

  async function post(path: string, data?: unknown): Promise<{ data: { id: number } }> {
    const res = await page.request.post(`${appUrl}${path}`, { data, headers: { Origin: appUrl } });
    expect(res.status()).toBeLessThan(300);
    return (await res.json()) as { data: { id: number } };
  }

  it('1. shows a monitor\'s recorded checks as beads in the list, oldest first, each named by time, result and response time', async () => {
    await signIn(appUrl);
    // Archive: paused, so the checks written here are all it has.
    const archive = await post('/api/v1/monitors', { name: 'Archive', url: `${app.target.url}/archive`, type: 'http', check_interval: 300, timeout: 5 });
    await post(`/api/v1/monitors/${archive.data.id}/pause`, { reason: null });
    const now = Date.now();
    await stack.ds.query('DELETE FROM check_results WHERE monitor_id = $1', [archive.data.id]);
    for (const [k, ok, code, rt, error, maintenance] of [
      [3, true, 200, 120, null, false],
      [2, false, 500, 500, 'Unexpected status 500', false],
      [1, false, 503, 80, 'Unexpected status 503', true],
    ] as const) {
      await stack.ds.query(
        `INSERT INTO check_results (monitor_id, scheduled_at, ok, status_code, response_time, error, maintenance) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [archive.data.id, new Date(now - k * MINUTE), ok, code, rt, error, maintenance],
      );
    }
    shopId = (await post('/api/v1/monitors', { name: 'Shop', url: `${app.target.url}/shop`, type: 'http', check_interval: 300, timeout: 5 })).data.id;
    await monitorOnServer(stack.ds, 'Shop', 'online');

    await nav('Monitors');
    await page.getByRole('columnheader', { name: 'Latest checks' }).waitFor();
    const archiveBeads = beadsOf('Archive');
    await archiveBeads.nth(2).waitFor();
    expect(await archiveBeads.count()).toBe(3);
    const names = await archiveBeads.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names[0]).toMatch(/ · Up · HTTP 200 · 120 ms$/);
    expect(names[1]).toMatch(/ · Down · HTTP 500 · 500 ms · Unexpected status 500$/);
    expect(names[2]).toMatch(/ · Down, in maintenance · HTTP 503 · 80 ms · Unexpected status 503$/);
    // Their colours: up, down, maintenance.
    expect(await archiveBeads.evaluateAll((els) => els.map((e) => e.className))).toEqual(['bead up', 'bead down', 'bead maintenance']);
    expect(await beadsOf('Shop').count()).toBeGreaterThanOrEqual(1);
  });

  it('2. reaches the beads with one Tab, moves between them with the arrow keys, and shows each one\'s tooltip', async () => {
    await row('Archive').getByRole('link', { name: 'Archive', exact: true }).focus();
    await page.keyboard.press('Tab');
    // The strip's one stop is its newest bead.
    expect(await focusedName()).toMatch(/Down, in maintenance/);
    const tooltip = page.getByRole('tooltip');
    await tooltip.filter({ hasText: 'Down, in maintenance · HTTP 503 · 80 ms' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    expect(await focusedName()).toMatch(/ · Down · HTTP 500 · 500 ms/);
    await tooltip.filter({ hasText: 'Down · HTTP 500 · 500 ms · Unexpected status 500' }).waitFor();
    await page.keyboard.press('Home');
    expect(await focusedName()).toMatch(/ · Up · HTTP 200 · 120 ms$/);
    // Tab leaves the strip at once, for the next row's link: its other beads are not stops.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(`document.activeElement?.textContent ?? null`)).toBe('Shop');
    // The pointer shows a tooltip too.
    await beadsOf('Archive').nth(1).hover();
    await tooltip.filter({ hasText: 'Unexpected status 500' }).waitFor();
    await checkPage('beads-list');
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: 'detached' });
  });

  it('3. adds a check the check-worker records to the list within 2 s, from the stream, with its status code and error, with no request', async () => {
    const shopBeads = beadsOf('Shop');
    const before = await shopBeads.count();
    requests.length = 0;
    app.target.respond(answer(500, 'boom'));
    await post(`/api/v1/monitors/${shopId}/pause`, { reason: null });
    await post(`/api/v1/monitors/${shopId}/resume`);
    await monitorOnServer(stack.ds, 'Shop', 'offline');
    await shopBeads.nth(before).waitFor({ timeout: WITHIN_MS });
    // The live bead says what a fetched one says: its status code and its error, from the event.
    expect(await shopBeads.last().getAttribute('aria-label')).toMatch(/ · Down · HTTP 500 · \d+ ms · Expected status 2xx, got 500$/);
    expect(await shopBeads.last().getAttribute('class')).toBe('bead down');
    await shopBeads.last().hover();
    await page.getByRole('tooltip').filter({ hasText: /Down · HTTP 500 · \d+ ms · Expected status 2xx, got 500/ }).waitFor();
    await page.mouse.move(0, 0);
    expect(requests.filter((r) => r.includes('recent-checks'))).toEqual([]);
  });

  it('4. shows the dashboard\'s "Latest checks", the monitor down now first', async () => {
    await nav('Dashboard');
    const card = page.getByRole('region', { name: 'Latest checks' });
    await card.getByRole('group', { name: 'Latest checks of Archive', exact: true }).getByRole('button').nth(2).waitFor();
    // The dashboard shown from its cache first reorders once its fresh "Down now" arrives (within
    // the live updates' 2 s, docs/web.md): the order is read when it has settled, or after 2 s.
    const order = () => card.getByRole('group').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    const want = ['Latest checks of Shop', 'Latest checks of Archive'];
    for (let i = 0; i < 20 && JSON.stringify(await order()) !== JSON.stringify(want); i += 1) await page.waitForTimeout(100);
    expect(await order()).toEqual(want);
    expect(await card.getByRole('group', { name: 'Latest checks of Shop', exact: true }).getByRole('button').last().getAttribute('class')).toBe('bead down');
    await card.getByRole('group', { name: 'Latest checks of Shop', exact: true }).getByRole('button').last().hover();
    await page.getByRole('tooltip').filter({ hasText: /Down/ }).waitFor();
    await checkPage('beads-dashboard');
    await page.mouse.move(0, 0);
  });

  it('5. keeps the dashboard\'s beads within a phone\'s width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const card = page.getByRole('region', { name: 'Latest checks' });
    await card.waitFor();
    expect(await page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')).toBe(true);
    const box = await card.getByRole('group', { name: 'Latest checks of Archive', exact: true }).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await checkPage('beads-dashboard-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
