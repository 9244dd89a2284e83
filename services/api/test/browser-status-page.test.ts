import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Monitor } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { OUTPUT_DIR, startBrowserHarness, type BrowserHarness } from './support/browser-harness';

jest.setTimeout(90_000);

const DAY = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dayName = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

/**
 * A visitor's view of a status page, with JavaScript off: headless Chromium reads the monitors'
 * names and each one's 90 days by role and accessible name, focuses a day from the keyboard and
 * sees its tooltip. Screenshots (desktop light and dark, phone) are kept in test-output/.
 */
describe('a status page in a browser without JavaScript', () => {
  let b: BrowserHarness;
  beforeAll(async () => {
    b = await startBrowserHarness({ javaScriptEnabled: false });
  });
  afterAll(() => b?.close());

  async function history(m: Monitor, uptimeOfDay: (daysAgo: number) => number | null): Promise<void> {
    const today = Math.floor(Date.now() / DAY) * DAY;
    for (let ago = 0; ago < 90; ago++) {
      const uptime = uptimeOfDay(ago);
      if (uptime === null) continue;
      await b.api.ds.query(`INSERT INTO check_rollups_1d (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 10000, $3, 0, 0, '{}')`, [
        m.id,
        new Date(today - ago * DAY),
        Math.round(uptime * 100),
      ]);
    }
    // The 24 hours are read from the finer rollups: this 5-minute bucket stands for them.
    const uptime = uptimeOfDay(0);
    if (uptime !== null) {
      await b.api.ds.query(`INSERT INTO check_rollups_5m (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 10000, $3, 0, 0, '{}')`, [
        m.id,
        new Date(Math.floor(Date.now() / 300_000) * 300_000),
        Math.round(uptime * 100),
      ]);
    }
  }

  it('shows the names and 90 labelled, focusable days of each monitor, light, dark and on a phone', async () => {
    const { user, auth } = await aCaller(b.api.ds);
    const shop = await aMonitor(b.api.ds, user, { name: 'Shop <storefront>', status: 'online' });
    const api = await aMonitor(b.api.ds, user, { name: 'Public API', status: 'offline' });
    const docs = await aMonitor(b.api.ds, user, { name: 'Docs & help', status: 'warning' });
    const legacy = await aMonitor(b.api.ds, user, { name: 'Legacy FTP', status: 'paused' });
    await history(shop, (ago) => (ago === 12 ? 97.5 : 100));
    await history(api, (ago) => (ago > 60 ? null : ago === 0 ? 82.4 : ago === 33 ? 99.5 : 100));
    await history(docs, (ago) => (ago % 17 === 3 ? 99.2 : 100));
    const [incident] = await b.api.ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, $2) RETURNING id`, [api.id, new Date(Date.now() - 42 * 60_000)]);
    await b.api.ds.query(`UPDATE monitors SET open_incident_id = $2 WHERE id = $1`, [api.id, incident.id]);
    const created = await fetch(`${b.baseUrl}/api/v1/status-pages`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        slug: 'acme',
        title: 'Acme Corp',
        description: 'Live status of the Acme shop, its public API and documentation.',
        monitor_ids: [shop.id, api.id, docs.id, legacy.id],
      }),
    });
    expect(created.status).toBe(201);

    const page: Page = await b.page();
    const failures: string[] = [];
    // The browser's own request for /favicon.ico is not the page's.
    page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && failures.push(m.text()));
    page.on('requestfailed', (r) => failures.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
    const res = await page.goto(`${b.baseUrl}/status/acme`);
    expect(res?.status()).toBe(200);

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Acme Corp');
    await expect(page.getByRole('status').textContent()).resolves.toBe('Outage');
    await expect(page.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual(['Active incidents', 'Shop <storefront>', 'Public API', 'Docs & help', 'Legacy FTP', 'Past incidents']);
    for (const name of ['Shop <storefront>', 'Public API', 'Docs & help', 'Legacy FTP']) {
      const days = page.getByRole('group', { name: `${name}, uptime of the last 90 days` }).getByRole('img');
      await expect(days.count()).resolves.toBe(90);
    }
    const today = Math.floor(Date.now() / DAY) * DAY;
    const apiDays = page.getByRole('group', { name: 'Public API, uptime of the last 90 days' });
    await expect(apiDays.getByRole('img', { name: `${dayName(today)}: 82.40% uptime`, exact: true }).count()).resolves.toBe(1);
    await expect(apiDays.getByRole('img', { name: `${dayName(today - 89 * DAY)}: no checks`, exact: true }).count()).resolves.toBe(1);
    await expect(page.getByRole('img', { name: `${dayName(today - 12 * DAY)}: 97.50% uptime`, exact: true }).count()).resolves.toBe(1);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page.png'), fullPage: true });

    // From the keyboard: the first day of the first bar takes the focus and shows its date and uptime.
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    await expect(focused.getAttribute('aria-label')).resolves.toBe(`${dayName(today - 89 * DAY)}: 100.00% uptime`);
    const tooltip = await focused.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el, '::after').content);
    expect(tooltip).toBe(`"${dayName(today - 89 * DAY)}: 100.00% uptime"`);
    for (let i = 0; i < 77; i++) await page.keyboard.press('Tab');
    await expect(focused.getAttribute('aria-label')).resolves.toBe(`${dayName(today - 12 * DAY)}: 97.50% uptime`);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-focus.png'), clip: { x: 0, y: 0, width: 1280, height: 560 } });

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-dark.png'), fullPage: true });
    const background = await page.locator('body').evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(13, 17, 23)');

    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const phoneWidth = await page.locator('html').evaluate((el) => el.scrollWidth);
    expect(phoneWidth).toBeLessThanOrEqual(390);
    await expect(page.getByRole('group', { name: 'Shop <storefront>, uptime of the last 90 days' }).getByRole('img').count()).resolves.toBe(90);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-phone.png'), fullPage: true });
    expect(failures).toEqual([]);
  });

  it('reads an incident’s timeline, a maintenance notice and a monitor in maintenance, and follows the incident to its own page', async () => {
    const { user, auth } = await aCaller(b.api.ds);
    const db = await aMonitor(b.api.ds, user, { name: 'Database', status: 'offline', inMaintenance: true });
    const shop = await aMonitor(b.api.ds, user, { name: 'Checkout', status: 'online' });
    const post = async (pathname: string, body: object): Promise<{ id: number }> => {
      const res = await fetch(`${b.baseUrl}/api/v1${pathname}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { id: number } }).data;
    };
    const statusPage = await post('/status-pages', { slug: 'acme-incidents', title: 'Acme', monitor_ids: [shop.id, db.id] });
    await post('/maintenance-windows', {
      name: 'Database upgrade',
      monitor_ids: [db.id],
      starts_at: new Date(Date.now() - 30 * 60_000).toISOString(),
      duration_minutes: 120,
      repeat: 'none',
      timezone: 'UTC',
    });
    const incident = await post(`/status-pages/${statusPage.id}/incidents`, {
      title: 'Payments failing',
      impact: 'major',
      monitor_ids: [shop.id],
      message: 'Some *payments* fail.',
    });
    await post(`/status-pages/${statusPage.id}/incidents/${incident.id}/updates`, {
      status: 'identified',
      message: 'A bad deploy; see [the changelog](https://example.com/changes).',
    });

    const page: Page = await b.page();
    const res = await page.goto(`${b.baseUrl}/status/acme-incidents`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('status').textContent()).resolves.toBe('Outage');
    await expect(page.getByRole('heading', { level: 2 }).allTextContents()).resolves.toEqual([
      'Active incidents',
      'Maintenance',
      'Checkout',
      'Database',
      'Past incidents',
    ]);
    const article = page.getByRole('article', { name: 'Payments failing' });
    const timeline = article.getByRole('list', { name: 'Updates of Payments failing' }).getByRole('listitem');
    await expect(timeline.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Identified \d+ \w+ \d{4} \d\d:\d\d UTC\n+A bad deploy; see the changelog\.$/),
      expect.stringMatching(/^Investigating \d+ \w+ \d{4} \d\d:\d\d UTC\n+Some payments fail\.$/),
    ]);
    await expect(article.getByRole('link', { name: 'the changelog' }).getAttribute('rel')).resolves.toBe('nofollow noopener');
    await expect(page.getByRole('region', { name: 'Maintenance' }).innerText()).resolves.toMatch(
      /^Maintenance\n+In progress: Database upgrade\n+.* UTC to .* UTC · Database$/,
    );
    const database = page.getByRole('region', { name: 'Database' });
    await expect(database.getByText('Maintenance', { exact: true }).count()).resolves.toBe(1);
    await expect(database.getByText('Down', { exact: true }).count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-incident.png'), fullPage: true });

    await page.getByRole('region', { name: 'Past incidents' }).getByRole('link', { name: 'Payments failing' }).click();
    await page.waitForURL(`${b.baseUrl}/status/acme-incidents/incidents/${incident.id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payments failing');
    await expect(page.getByRole('listitem').count()).resolves.toBe(2);
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-incident-detail.png'), fullPage: true });
    await page.getByRole('link', { name: 'Acme' }).click();
    await page.waitForURL(`${b.baseUrl}/status/acme-incidents`);
  });

  it('subscribes by email through the page’s form, without JavaScript', async () => {
    const { user, auth } = await aCaller(b.api.ds);
    const shop = await aMonitor(b.api.ds, user, { name: 'Checkout', status: 'online' });
    const created = await fetch(`${b.baseUrl}/api/v1/status-pages`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ slug: 'acme-subscribe', title: 'Acme', monitor_ids: [shop.id] }),
    });
    expect(created.status).toBe(201);
    const page: Page = await b.page();
    await page.goto(`${b.baseUrl}/status/acme-subscribe`);
    const form = page.getByRole('form', { name: 'Get updates by email' });
    await form.getByLabel('Email address').fill('visitor@example.com');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(`${b.baseUrl}/status/acme-subscribe/subscribe`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check your inbox');
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-subscribed.png'), fullPage: true });
    const [row] = await b.api.ds.query(`SELECT status FROM status_page_subscribers WHERE email = 'visitor@example.com'`);
    expect(row.status).toBe('pending');
    await page.getByRole('link', { name: 'Back to the status page' }).click();
    await page.waitForURL(`${b.baseUrl}/status/acme-subscribe`);
  });
});
