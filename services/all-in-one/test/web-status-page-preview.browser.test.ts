import type { Locator, Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

const LIN = { id: '7321', email: 'lin@example.com', name: 'Lin Qiao' };
const DAY_MS = 86_400_000;

/** A UTC day as the page names it, written out here rather than taken from the code under test. */
const dayName = (daysAgo: number): string => {
  const d = new Date(Date.now() - daysAgo * DAY_MS);
  return `${d.getUTCDate()} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]!} ${d.getUTCFullYear()}`;
};

/**
 * The status page form's preview shows the page as visitors read it (docs/status-pages.md,
 * "The owner's preview"; docs/web.md): a page not saved yet says it has no incidents or
 * maintenance; a saved one shows, in the public page's order, the banner, the open incident with
 * its timeline (the messages' safe Markdown as rendered), maintenance in progress, the monitors
 * (one shown as Maintenance) and the past incidents by day. Headless Chromium against the real
 * api, Postgres and Redis, by role and accessible name, axe-core on each state.
 */
describe("the web app: a status page's preview", () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    app = await startBrowserApp({ person: LIN, checkWorker: false });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, checkPage, signIn, addMonitor } = appDriver(() => page);
  const preview = (): Locator => page.getByRole('region', { name: 'Preview', exact: true });

  async function post(path: string, body: unknown): Promise<{ id: number }> {
    const res = await page.request.post(`${appUrl}${path}`, { data: body, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: { id: number } }).data;
  }
  async function monitorId(name: string): Promise<number> {
    return ((await stack.ds.query('SELECT id FROM monitors WHERE name = $1', [name])) as { id: number }[])[0]!.id;
  }
  /** Where each block starts on screen, top to bottom. */
  async function topOf(block: Locator): Promise<number> {
    const box = await block.boundingBox();
    expect(box).not.toBeNull();
    return box!.y;
  }

  it('1. says plainly that a page not saved yet has no incidents or maintenance', async () => {
    await signIn(appUrl);
    await addMonitor('Shop', `${app.target.url}/shop`);
    await nav('Dashboard');
    await addMonitor('Mail', `${app.target.url}/mail`);
    await nav('Status pages');
    await page.getByRole('button', { name: 'New status page' }).click();
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByLabel('Slug').fill('lin');
    await form.getByLabel('Title').fill('Lin services');
    await form.getByRole('checkbox', { name: 'Shop', exact: true }).check();
    await preview().getByRole('heading', { name: 'Lin services', level: 3 }).waitFor();
    await preview().getByText('Not saved yet: this page has no incidents or maintenance. They show here once it is saved.').waitFor();
    expect(await preview().getByRole('region', { name: 'Past incidents' }).count()).toBe(0);
    await checkPage('status-page-preview-unsaved');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('2. shows the banner, the open incident and its timeline, maintenance, the monitors and past incidents, in that order', async () => {
    const shop = await monitorId('Shop');
    const pageId = (
      await post('/api/v1/status-pages', { slug: 'lin', title: 'Lin services', monitor_ids: [shop, await monitorId('Mail')] })
    ).id;
    const open = await post(`/api/v1/status-pages/${pageId}/incidents`, {
      title: 'Checkout errors',
      impact: 'major',
      monitor_ids: [shop],
      message: 'Some **payments** fail',
    });
    await post(`/api/v1/status-pages/${pageId}/incidents/${open.id}/updates`, {
      status: 'identified',
      message: 'A bad deploy, being rolled back',
    });
    await post(`/api/v1/status-pages/${pageId}/incidents`, {
      title: 'Database failover',
      impact: 'minor',
      status: 'resolved',
      started_at: new Date(Date.now() - DAY_MS).toISOString(),
      message: 'Failed over to the replica',
    });
    await post('/api/v1/maintenance-windows', {
      name: 'Shop upgrade',
      monitor_ids: [shop],
      starts_at: new Date(Date.now() - 30 * 60_000).toISOString(),
      duration_minutes: 120,
      repeat: 'none',
      timezone: 'UTC',
    });
    // What the check-worker records when Shop's check falls in the window (it is off here): down, but in maintenance.
    await stack.ds.query(`UPDATE monitors SET status = 'offline', in_maintenance = true WHERE id = $1`, [shop]);

    // The page was made through the API: the list is read afresh.
    await page.reload();
    await page.getByRole('button', { name: 'Edit Lin services' }).click();
    await page.getByRole('form', { name: 'Edit Lin services' }).waitFor();

    // The banner: the open incident's major impact is an outage, whatever the monitors say.
    const banner = preview().getByText('Outage', { exact: true });
    await banner.waitFor();

    const incidents = preview().getByRole('region', { name: 'Active incidents' });
    const incident = incidents.getByRole('article', { name: 'Checkout errors' });
    await incident.getByText('Major impact · Affects Shop', { exact: false }).waitFor();
    const timeline = incident.getByRole('list', { name: 'Updates of Checkout errors' });
    expect(await timeline.getByRole('listitem').count()).toBe(2);
    // Newest first, each message as the public page renders its Markdown.
    await timeline.getByRole('listitem').nth(0).getByText('Identified').waitFor();
    await timeline.getByRole('region', { name: 'Identified update' }).getByText('A bad deploy, being rolled back').waitFor();
    await timeline.getByRole('listitem').nth(1).getByText('Investigating').waitFor();
    const payments = timeline.getByRole('region', { name: 'Investigating update' }).locator('strong');
    expect(await payments.textContent()).toBe('payments');
    // The resolved incident is no longer active.
    expect(await incidents.getByText('Database failover').count()).toBe(0);

    const maintenance = preview().getByRole('region', { name: 'Maintenance', exact: true });
    await maintenance.getByText('In progress', { exact: true }).waitFor();
    expect(await maintenance.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^In progress: Shop upgrade.* to .*· Shop$/),
    ]);

    const monitors = preview().getByRole('region', { name: 'Monitors', exact: true });
    const shopRow = monitors.getByRole('listitem').filter({ hasText: 'Shop' });
    await shopRow.getByText('Maintenance', { exact: true }).waitFor();
    expect(await shopRow.getByText('Down', { exact: true }).count()).toBe(0);
    await monitors.getByRole('listitem').filter({ hasText: 'Mail' }).getByText('Not checked yet', { exact: true }).waitFor();

    const past = preview().getByRole('region', { name: 'Past incidents' });
    // Today's (the open one, started today) first, then yesterday's.
    expect(await past.getByRole('heading', { level: 5 }).allTextContents()).toEqual([dayName(0), dayName(1)]);
    const yesterday = past.getByRole('link', { name: 'Database failover' });
    expect(await yesterday.getAttribute('href')).toMatch(/\/status\/lin\/incidents\/\d+$/);
    await past.getByText('Minor impact · Resolved').waitFor();

    const tops = [await topOf(banner), await topOf(incidents), await topOf(maintenance), await topOf(monitors), await topOf(past)];
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    expect(new Set(tops).size).toBe(5);
    await checkPage('status-page-preview');
  });
});
