import type { Locator, Page } from 'playwright-core';
import { answer, waitFor, type FakeHandler } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { MEASURE_OVERFLOW, type Overflow } from './support/page-overflow';
import { aTokenAndAnAgentAtRest, LONG_MONITOR_NAME, type Created } from './support/sample-data';
import { appDriver, screenshot, seriousAxeViolations } from './support/web-browser';

jest.setTimeout(600_000);

/** The two widths every page is looked at (docs/web.md, "Screens"): a laptop and a phone. */
const WIDTHS = [
  { name: '1280', width: 1280, height: 900 },
  { name: '390', width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * Every page of the app at 1280 and 390 px wide, light and dark, with data that makes it work
 * hard (a long name and URL, a monitor down, a paused one, one in maintenance, a status page, a
 * channel, a window, a token, an agent) and each page's empty state first: at each width and
 * scheme, nothing past the window's right edge, axe-core clean (contrast in both schemes), and
 * `test-output/web-screen-<page>-<width>-<scheme>.png` to look at. Headless Chromium against the
 * real api, check-worker and notifier, by role and accessible name.
 */
describe('the web app: every page at 1280 and 390 px, light and dark', () => {
  let app: BrowserApp;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    // /down answers 500 from the start: a monitor of it goes offline with an error and an alert.
    const handler: FakeHandler = (req, res) =>
      req.url.startsWith('/down') ? answer(500, 'broken')(req, res) : answer(200, 'ok')(req, res);
    app = await startBrowserApp({
      person: { id: '1280', email: 'grace@example.com', name: 'Grace Brewster Murray Hopper' },
      target: handler,
    });
    ({ page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { heading, signIn, nav } = appDriver(() => page);

  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await page.request.post(`${appUrl}${path}`, { data: body, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: T }).data;
  }

  /** The page as it is now, at each width and scheme: within the window, axe clean, and its screenshots. */
  async function lookAt(name: string): Promise<void> {
    const problems: string[] = [];
    for (const size of WIDTHS) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const colorScheme of SCHEMES) {
        await page.emulateMedia({ colorScheme });
        // The screenshot first: what failed is then there to be seen.
        await screenshot(page, `screen-${name}-${size.name}-${colorScheme}`);
        const measured = await page.evaluate<Overflow>(MEASURE_OVERFLOW);
        const where = `${name} at ${size.name} ${colorScheme}`;
        for (const b of measured.beyond) problems.push(`${where}: ${b}`);
        if (measured.scrollWidth > measured.innerWidth)
          problems.push(`${where}: scrolls sideways (${measured.scrollWidth} > ${measured.innerWidth})`);
        for (const v of await seriousAxeViolations(page)) problems.push(`${where}: ${v}`);
      }
    }
    await page.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  }

  it('1. the sign-in page and every page empty', async () => {
    await page.goto(`${appUrl}/sign-in`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    await lookAt('sign-in');
    await signIn(appUrl);
    await page.getByText('No notifications yet.').first().waitFor();
    await lookAt('dashboard-empty');
    for (const [link, empty, shot] of [
      ['Monitors', /No monitors/, 'monitors-empty'],
      ['Notifications', /Nothing needs attention/, 'notifications-empty'],
      ['Channels', /No channels yet/, 'channels-empty'],
      ['Status pages', /No status pages yet/, 'status-pages-empty'],
      ['Maintenance', /No maintenance windows/, 'maintenance-empty'],
      ['Agents', /No agents registered yet/, 'agents-empty'],
    ] as const) {
      await nav(link);
      await page.getByText(empty).first().waitFor();
      await lookAt(shot);
    }
  });

  it('2. every page with data', async () => {
    const shop = await post<Created>('/api/v1/monitors', {
      name: LONG_MONITOR_NAME,
      url: `${app.target.url}/api/v1/health/checkout/with/a/rather/long/path?region=eu-west-1&verbose=true`,
      type: 'http',
      check_interval: 1,
      timeout: 5,
      tags: ['production', 'eu-west', 'payments'],
    });
    /** A monitor of the target's `path`, checked every second. */
    const aMonitor = (name: string, path: string) =>
      post<Created>('/api/v1/monitors', { name, url: `${app.target.url}${path}`, type: 'http', check_interval: 1, timeout: 5 });
    const billing = await aMonitor('Billing API', '/down/billing');
    const blog = await aMonitor('Blog', '/blog');
    const archive = await aMonitor('Archive', '/archive');
    const paused = await page.request.post(`${appUrl}/api/v1/monitors/${archive.id}/pause`, {
      data: { reason: 'Moving to the new host' },
      headers: { Origin: appUrl },
    });
    expect(paused.status()).toBe(200);
    await post('/api/v1/maintenance-windows', {
      name: 'Blog database upgrade',
      monitor_ids: [blog.id],
      starts_at: new Date(Date.now() - 10 * 60_000).toISOString(),
      duration_minutes: 120,
      repeat: 'none',
      timezone: 'Europe/Paris',
    });
    await post('/api/v1/status-pages', {
      slug: 'european-shop-front-status',
      title: 'European shop front',
      description: 'Checkout, payments and everything a customer touches',
      monitor_ids: [shop.id, billing.id, blog.id],
      published: true,
    });
    await post('/api/v1/channels', {
      name: 'Operations on call',
      type: 'email',
      config: { recipients: ['ops@example.com', 'oncall@example.com'] },
      is_default: false,
    });
    await aTokenAndAnAgentAtRest(page, appUrl, `${app.target.url}/agent`);
    await waitFor(
      async () =>
        ((await app.stack.ds.query(`SELECT 1 FROM notifications WHERE monitor_id = $1`, [billing.id])) as unknown[]).length > 0 &&
        ((await app.stack.ds.query('SELECT 1 FROM check_results WHERE monitor_id = $1', [shop.id])) as unknown[]).length >= 3,
      { what: "Billing's alert and three checks of the shop", timeoutMs: 30_000, intervalMs: 100 },
    );

    await nav('Dashboard');
    await page.getByRole('link', { name: 'Billing API', exact: true }).first().waitFor();
    await lookAt('dashboard');
    await nav('Monitors');
    await page.getByRole('link', { name: LONG_MONITOR_NAME, exact: true }).waitFor();
    await lookAt('monitors');
    await page.getByRole('link', { name: LONG_MONITOR_NAME, exact: true }).click();
    await heading().filter({ hasText: LONG_MONITOR_NAME }).waitFor();
    await page.getByRole('region', { name: 'Recent checks' }).getByRole('row').nth(2).waitFor();
    await lookAt('monitor');
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading()
      .filter({ hasText: `Edit ${LONG_MONITOR_NAME}` })
      .waitFor();
    await lookAt('monitor-edit');
    await nav('Monitors');
    await page.getByRole('link', { name: 'Billing API', exact: true }).click();
    await heading().filter({ hasText: 'Billing API' }).waitFor();
    await page.getByRole('region', { name: 'Recent checks' }).getByRole('row').nth(2).waitFor();
    await lookAt('monitor-down');
    await nav('Dashboard');
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    await lookAt('monitor-new');

    await nav('Notifications');
    await page.getByRole('button', { name: 'Deliveries' }).first().click();
    await lookAt('notifications');
    // Each page by its link, once it shows what was made for it; then, where it has one, its form.
    const text = (t: string) => () => page.getByText(t, { exact: true }).first();
    const pages: [link: string, shows: () => Locator, shot: string, form?: [button: string, name: string]][] = [
      ['Channels', text('Operations on call'), 'channels', ['Add channel', 'New channel']],
      ['Status pages', text('European shop front'), 'status-pages', ['Edit European shop front', 'Edit European shop front']],
      ['Maintenance', text('Blog database upgrade'), 'maintenance', ['Edit Blog database upgrade', 'Edit Blog database upgrade']],
      ['Agents', text('frankfurt-edge-1'), 'agents'],
      ['Members', text('grace@example.com'), 'members'],
      ['Audit log', () => page.getByRole('cell', { name: 'status_page.create' }).first(), 'audit-log'],
      ['Settings', text('deploy script of the checkout'), 'settings'],
    ];
    for (const [link, shows, shot, form] of pages) {
      await nav(link);
      await shows().waitFor();
      await lookAt(shot);
      if (!form) continue;
      await page.getByRole('button', { name: form[0], exact: true }).click();
      await page.getByRole('form', { name: form[1] }).waitFor();
      await lookAt(`${shot}-form`);
    }
    await page.goto(`${appUrl}/no-such-page`);
    await heading().waitFor();
    await lookAt('not-found');
    // The public status page, which the api renders itself (docs/status-pages.md).
    await page.goto(`${appUrl}/status/european-shop-front-status`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await lookAt('public-status-page');
  });
});
