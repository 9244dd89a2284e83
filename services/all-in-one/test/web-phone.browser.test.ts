import type { Page } from 'playwright-core';
import { answer, waitFor } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { MEASURE_OVERFLOW, type Overflow } from './support/page-overflow';
import { aTokenAndAnAgentAtRest, LONG_MONITOR_NAME, type Created } from './support/sample-data';
import { appDriver, screenshot, seriousAxeViolations } from './support/web-browser';

jest.setTimeout(240_000);

/** A phone's window (an iPhone 12 to 15), the width docs/web.md promises every page fits. */
const PHONE = { width: 390, height: 844 };
const NAV = ['Dashboard', 'Monitors', 'Notifications', 'Channels', 'Status pages', 'Maintenance', 'Agents', 'Members', 'Audit log', 'Settings'];
/** Long enough to push a careless layout past 390 px, with tags and a long URL path. */
const MONITOR = LONG_MONITOR_NAME;

/**
 * The web app on a phone (docs/web.md, "On a phone"): at 390 × 844 every main page fits the
 * window, with no element past its right edge and no sideways scrolling, and every navigation
 * link is reached through the "Menu" button. Headless Chromium against the real api,
 * check-worker and notifier, as web-alerts.browser.test.ts does: by role and accessible name,
 * axe-core on every page, and each page left in test-output/ as web-phone-<page>-<scheme>.png,
 * light and dark.
 */
describe('the web app on a phone', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  let monitorId: number;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '3901', email: 'grace@example.com', name: 'Grace Hopper' }, target: answer(200, 'ok') });
    ({ stack, page, appUrl } = app);
    await page.setViewportSize(PHONE);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { heading, signIn, refreshed } = appDriver(() => page);
  const menuButton = () => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu', exact: true });
  const menuLink = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await page.request.post(`${appUrl}${path}`, { data: body, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: T }).data;
  }

  /** Follows a link of the main menu as a phone user does: open the menu, tap the link. */
  async function navByMenu(name: string, title = name): Promise<void> {
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(await menuLink(name).isVisible()).toBe(false);
    await menuButton().click();
    expect(await menuButton().getAttribute('aria-expanded')).toBe('true');
    await menuLink(name).click();
    await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
    // The menu folds away again, leaving the page it led to in view.
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(await menuLink(name).isVisible()).toBe(false);
  }

  /** Nothing past the window's right edge, axe clean, and a screenshot in each colour scheme. */
  async function fitsThePhone(name: string): Promise<void> {
    // The screenshots first: what failed is then there to be seen.
    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      await screenshot(page, `phone-${name}-${colorScheme}`);
    }
    const measured = await page.evaluate<Overflow>(MEASURE_OVERFLOW);
    expect(measured.beyond).toEqual([]);
    expect(measured.scrollWidth).toBeLessThanOrEqual(measured.innerWidth);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  it('1. signs in and shows the dashboard, its links folded behind an accessible "Menu" button', async () => {
    await page.goto(`${appUrl}/sign-in`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    await fitsThePhone('sign-in');
    await signIn(appUrl);
    for (const name of NAV) expect(await menuLink(name).isVisible()).toBe(false);
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    await fitsThePhone('dashboard-empty');

    // Open: every link shows (axe checks the open menu too); Escape folds it, focus on the button.
    await menuButton().click();
    for (const name of NAV) expect(await menuLink(name).isVisible()).toBe(true);
    await fitsThePhone('menu-open');
    await page.keyboard.press('Escape');
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(await menuButton().evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('2. reaches every navigation link through the menu', async () => {
    for (const name of [...NAV.slice(1), 'Dashboard']) await navByMenu(name);
  });

  it('3. fits the monitor list, a monitor with its recent checks and timings, and the monitor form', async () => {
    monitorId = (
      await post<Created>('/api/v1/monitors', {
        name: MONITOR,
        url: `${app.target.url}/api/v1/health/checkout/with/a/rather/long/path?region=eu-west-1&verbose=true`,
        type: 'http',
        check_interval: 1,
        timeout: 5,
        tags: ['production', 'eu-west', 'payments'],
      })
    ).id;
    await waitFor(
      async () => ((await stack.ds.query('SELECT 1 FROM check_results WHERE monitor_id = $1', [monitorId])) as unknown[]).length >= 2,
      { what: 'two checks of the monitor', timeoutMs: 20_000, intervalMs: 100 },
    );
    // Down, so the list, the dashboard and the notifications have an error and an alert to show.
    app.target.respond(answer(500, 'broken'));
    await waitFor(
      async () => ((await stack.ds.query('SELECT 1 FROM notifications WHERE monitor_id = $1', [monitorId])) as unknown[]).length > 0,
      { what: 'a notification of the monitor', timeoutMs: 30_000, intervalMs: 100 },
    );

    await navByMenu('Monitors');
    // The list was seen empty in 2: its own refresh brings the monitor.
    const row = page.getByRole('link', { name: MONITOR, exact: true });
    await refreshed(row);
    await fitsThePhone('monitors');

    await row.click();
    await heading().filter({ hasText: MONITOR }).waitFor();
    await page.getByRole('region', { name: 'Recent checks' }).getByText('total', { exact: false }).first().waitFor();
    await fitsThePhone('monitor');

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading().filter({ hasText: `Edit ${MONITOR}` }).waitFor();
    await fitsThePhone('monitor-edit');

    await navByMenu('Dashboard');
    await page.getByRole('link', { name: MONITOR, exact: true }).first().waitFor();
    await fitsThePhone('dashboard');
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    await fitsThePhone('monitor-new');
  });

  it('4. fits the notifications with their deliveries and filters, the status pages, the agents, the settings, a page not found and a public status page', async () => {
    await post('/api/v1/status-pages', {
      slug: 'european-shop-front-status',
      title: 'European shop front',
      description: 'Checkout, payments and everything a customer touches',
      monitor_ids: [monitorId],
      published: true,
    });
    await aTokenAndAnAgentAtRest(page, appUrl, `${app.target.url}/agent`);

    await navByMenu('Notifications');
    const deliveries = page.getByRole('button', { name: 'Deliveries' }).first();
    await deliveries.waitFor();
    await fitsThePhone('notifications');
    await deliveries.click();
    expect(await deliveries.getAttribute('aria-expanded')).toBe('true');
    await fitsThePhone('notification-deliveries');
    // All, with its type, state and since filters.
    await page.getByRole('group', { name: 'Which notifications' }).getByRole('button', { name: 'All', exact: true }).click();
    await page.getByRole('search', { name: 'Filter notifications' }).getByRole('combobox', { name: 'Type' }).waitFor();
    await fitsThePhone('notifications-all');

    await navByMenu('Status pages');
    await page.getByRole('cell', { name: 'European shop front', exact: true }).or(page.getByText('European shop front', { exact: true })).first().waitFor();
    await fitsThePhone('status-pages');
    await page.getByRole('button', { name: 'New status page' }).click();
    await page.getByRole('form', { name: 'New status page' }).waitFor();
    await fitsThePhone('status-page-new');

    await navByMenu('Agents');
    await page.getByText('frankfurt-edge-1').first().waitFor();
    await fitsThePhone('agents');

    await navByMenu('Settings');
    await page.getByText('deploy script of the checkout').first().waitFor();
    await fitsThePhone('settings');

    await page.goto(`${appUrl}/no-such-page`);
    await heading().waitFor();
    await fitsThePhone('not-found');
    // The public status page, which the api renders itself (docs/status-pages.md).
    await page.goto(`${appUrl}/status/european-shop-front-status`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await fitsThePhone('public-status-page');
  });

  it('5. at 1280 px, shows every navigation link in the bar, none scrolled out of view', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      await page.goto(`${appUrl}/`);
      await heading().waitFor();
      expect(await menuButton().isVisible()).toBe(false);
      const nav = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
      for (const name of NAV) {
        const box = await menuLink(name).boundingBox();
        expect({ name, inside: box !== null && nav !== null && box.x >= nav.x && box.x + box.width <= nav.x + nav.width }).toEqual({ name, inside: true });
      }
    } finally {
      await page.setViewportSize(PHONE);
    }
  });
});
