import path from 'node:path';
import type { Page } from 'playwright-core';
import { answer, waitFor } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver, OUTPUT_DIR } from './support/web-browser';

jest.setTimeout(180_000);

/**
 * A monitor inside an active maintenance window reads Maintenance, not Offline, on the dashboard
 * (and is not listed as down there), in the list, on its page, and on the public status page
 * with JavaScript off (docs/alert-rules.md, docs/status-pages.md). Headless Chromium against the
 * real api and check-worker, by role and accessible name, as web-alerts.browser.test.ts does.
 */
describe('the web app: a monitor in maintenance', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    // Both monitors' target is down: one is in a window, the other is a real outage.
    app = await startBrowserApp({ person: { id: '5353', email: 'grace@example.com', name: 'Grace Hopper' }, target: answer(503, 'down') });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, checkPage, refreshed, signIn, addMonitor, heading } = appDriver(() => page);

  /** A POST with the page's own session, as the app makes it (its Origin passes the CSRF defence). */
  async function post(path: string, body: unknown): Promise<{ id: number }> {
    const res = await page.request.post(`${appUrl}${path}`, { data: body, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: { id: number } }).data;
  }

  const idOf = async (name: string): Promise<number> =>
    ((await stack.ds.query('SELECT id FROM monitors WHERE name = $1', [name])) as { id: number }[])[0]!.id;

  it('1. shows the monitor in a window as Maintenance on the dashboard, apart from the one down', async () => {
    await signIn(appUrl);
    await addMonitor('Database', `${app.target.url}/db`);
    await nav('Dashboard');
    await addMonitor('Shop', `${app.target.url}/shop`);
    const database = await idOf('Database');
    // A window that began a minute ago and lasts an hour: the next checks of Database fall in it.
    await post('/api/v1/maintenance-windows', {
      name: 'Database upgrade',
      monitor_ids: [database],
      starts_at: new Date(Date.now() - 60_000).toISOString(),
      duration_minutes: 60,
      repeat: 'none',
      timezone: 'UTC',
    });
    await monitorOnServer(stack.ds, 'Shop', 'offline');
    await waitFor(
      async () =>
        ((await stack.ds.query(`SELECT 1 FROM monitors WHERE id = $1 AND status = 'offline' AND in_maintenance`, [database])) as unknown[])
          .length > 0,
      { what: 'Database offline in maintenance on the server', timeoutMs: 20_000, intervalMs: 50 },
    );

    await nav('Dashboard');
    const downNow = page.getByRole('region', { name: 'Down now' });
    const shopItem = downNow.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) });
    const inMaintenance = downNow.getByRole('region', { name: 'In maintenance' });
    const databaseItem = inMaintenance.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Database', exact: true }) });
    await refreshed(databaseItem);
    await shopItem.waitFor();
    expect(await shopItem.getByText('Offline', { exact: true }).count()).toBe(1);
    expect(await databaseItem.getByText('Maintenance', { exact: true }).count()).toBe(1);
    expect(await databaseItem.getByText('Offline', { exact: true }).count()).toBe(0);
    // Listed once, as maintenance: never among the monitors down.
    expect(
      await downNow
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: 'Database', exact: true }) })
        .count(),
    ).toBe(1);
    await checkPage('dashboard-maintenance');
  });

  it('2. shows it as Maintenance in the list and on its page', async () => {
    await nav('Monitors');
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    await row('Database').getByText('Maintenance', { exact: true }).waitFor();
    expect(await row('Database').getByText('Offline', { exact: true }).count()).toBe(0);
    expect(await row('Shop').getByText('Offline', { exact: true }).count()).toBe(1);
    await checkPage('monitors-maintenance');
    // The system's dark scheme (the default theme follows it): the blue badge keeps its contrast (axe).
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage('monitors-maintenance-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('link', { name: 'Database', exact: true }).click();
    const title = heading().filter({ hasText: 'Database' });
    // The page may first show the monitor as the app's cache last had it (pending, from its creation).
    await refreshed(title.filter({ hasText: 'Maintenance' }));
    expect(await title.textContent()).toBe('Database Maintenance');
    expect(await title.getByText('Offline', { exact: true }).count()).toBe(0);
    await page.getByText(/In maintenance: Database upgrade, until /).waitFor();
    // Its checks made in the window are marked so in Recent checks.
    const recent = page.getByRole('region', { name: 'Recent checks' });
    await recent.getByRole('row').filter({ hasText: 'Maintenance' }).first().waitFor();
    await checkPage('monitor-maintenance');
  });

  it('3. shows it as Maintenance on the public status page, with JavaScript off', async () => {
    await post('/api/v1/status-pages', { slug: 'grace', title: 'Grace', monitor_ids: [await idOf('Database'), await idOf('Shop')] });
    const context = await app.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      const visitor = await context.newPage();
      await visitor.goto(`${appUrl}/status/grace`);
      const monitor = (name: string) => visitor.getByRole('region', { name });
      expect(await monitor('Database').getByText('Maintenance', { exact: true }).count()).toBe(1);
      expect(await monitor('Database').getByText('Down', { exact: true }).count()).toBe(0);
      expect(await monitor('Shop').getByText('Down', { exact: true }).count()).toBe(1);
      // Shop is down: the page has an outage, not because of the planned work on Database.
      expect(await visitor.getByRole('status').textContent()).toBe('Outage');
      await visitor.screenshot({ path: path.join(OUTPUT_DIR, 'web-status-page-maintenance.png'), fullPage: true });
      await visitor.emulateMedia({ colorScheme: 'dark' });
      await visitor.screenshot({ path: path.join(OUTPUT_DIR, 'web-status-page-maintenance-dark.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
