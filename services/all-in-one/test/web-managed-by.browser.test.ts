import type { Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

interface StoredMonitor {
  id: number;
  name: string;
  check_interval: number;
  key: string | null;
  managed_by: 'config' | null;
  updated_at: string;
}

/**
 * A monitor declared in uptime.yaml in the web app (docs/config-as-code.md, "A file owns the
 * fields it declares"): the list and its page mark it "Managed by uptime.yaml" with its key, and
 * its edit form asks first, since a change made there is drift the next `uptime plan` shows.
 * Cancel changes nothing; going on saves the change and keeps `key` and `managed_by`. A monitor
 * made in the UI has neither the mark nor the question. A channel, a maintenance window and a
 * status page declared in the file are marked too, and their in-place forms open only after the
 * same question. Headless Chromium, by role and
 * accessible name, as web-heartbeat.browser.test.ts does; no check-worker, since no check matters.
 */
describe('the web app: resources managed by uptime.yaml', () => {
  let app: BrowserApp;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '5656', email: 'mary@example.com', name: 'Mary Jackson' }, checkWorker: false });
    ({ page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, checkPage, signIn, addMonitor, heading, notice } = appDriver(() => page);

  /** The monitor as the API answers it, with the page's own session. */
  async function stored(id: number): Promise<StoredMonitor> {
    const res = await page.request.get(`${appUrl}/api/v1/monitors/${id}`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { data: StoredMonitor }).data;
  }

  let managedId: number;
  const MARK = 'Managed by uptime.yaml';
  const question = () => page.getByRole('dialog', { name: /managed by uptime\.yaml/ });

  it('marks the managed monitor in the list and on its page, and not the one made in the UI', async () => {
    await signIn(appUrl);
    await addMonitor('Shop', `${app.target.url}/shop`);
    // As `uptime apply` creates it (packages/cli/src/apply.ts): the entry's key, managed_by "config".
    const res = await page.request.post(`${appUrl}/api/v1/monitors`, {
      data: {
        type: 'http',
        name: 'Checkout API',
        url: `${app.target.url}/checkout`,
        check_interval: 60,
        timeout: 5,
        key: 'checkout',
        managed_by: 'config',
      },
      headers: { Origin: appUrl },
    });
    // The body too, so a refusal says why.
    expect({ status: res.status(), body: res.status() === 201 ? null : await res.text() }).toEqual({ status: 201, body: null });
    managedId = ((await res.json()) as { data: StoredMonitor }).data.id;
    expect(await stored(managedId)).toMatchObject({ key: 'checkout', managed_by: 'config' });

    await nav('Monitors');
    const list = page.getByRole('region', { name: 'Monitor list' });
    const managedRow = list.getByRole('row').filter({ hasText: 'Checkout API' });
    const mark = managedRow.getByText(MARK, { exact: true });
    await mark.waitFor();
    // The key is next to the mark and in its tooltip: what to look for in the file.
    expect(await managedRow.locator('.managed-mark').getAttribute('title')).toBe('Declared in uptime.yaml with the key "checkout"');
    expect(await managedRow.locator('.managed-mark').textContent()).toBe(`${MARK}checkout`);
    expect(await list.getByRole('row').filter({ hasText: 'Shop' }).getByText(MARK).count()).toBe(0);
    expect(await list.getByText(MARK).count()).toBe(1);
    await checkPage('managed-list');
    await page.screenshot({ path: '/tmp/web-managed-list.png' });

    await list.getByRole('link', { name: 'Checkout API' }).click();
    await heading().filter({ hasText: 'Checkout API' }).waitFor();
    expect(await heading().getByText(MARK, { exact: true }).count()).toBe(1);
    await checkPage('managed-detail');
  });

  it('asks before editing; Cancel goes back and changes nothing', async () => {
    const before = await stored(managedId);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await question().waitFor();
    const text = await question().textContent();
    expect(text).toContain('key checkout');
    expect(text).toContain("the next uptime plan shows it, and uptime apply puts the file's value back");
    expect(await question().getByRole('button', { name: 'Continue editing', exact: true }).count()).toBe(1);
    await checkPage('managed-question');
    await page.screenshot({ path: '/tmp/web-managed-question.png' });

    await question().getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Checkout API' }).filter({ hasNotText: 'Edit' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/monitors/${managedId}`);
    expect(await question().count()).toBe(0);
    expect(await stored(managedId)).toEqual(before);
  });

  it('goes on editing after the question, saves, and keeps key and managed_by', async () => {
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await question().getByRole('button', { name: 'Continue editing', exact: true }).click();
    await question().waitFor({ state: 'detached' });
    await heading().filter({ hasText: 'Edit Checkout API' }).waitFor();
    // The form says it too, for as long as it is open.
    expect(await page.getByText(MARK, { exact: true }).count()).toBe(1);
    await page.getByLabel('Check interval').fill('120');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notice('Monitor saved');
    await heading().filter({ hasText: 'Checkout API' }).filter({ hasNotText: 'Edit' }).waitFor();

    const after = await stored(managedId);
    expect(after).toMatchObject({ name: 'Checkout API', check_interval: 120, key: 'checkout', managed_by: 'config' });
  });

  it('edits a monitor made in the UI without a mark or a question', async () => {
    await nav('Monitors');
    await page.getByRole('region', { name: 'Monitor list' }).getByRole('link', { name: 'Shop' }).click();
    await heading().filter({ hasText: 'Shop' }).waitFor();
    expect(await page.getByText(MARK).count()).toBe(0);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading().filter({ hasText: 'Edit Shop' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByText(MARK).count()).toBe(0);
    const [shop] = (await app.stack.ds.query(`SELECT key, managed_by FROM monitors WHERE name = 'Shop'`)) as {
      key: string | null;
      managed_by: string | null;
    }[];
    expect(shop).toEqual({ key: null, managed_by: null });
  });
  it.each([
    {
      nav: 'Channels',
      path: '/api/v1/channels',
      name: 'Ops hook',
      body: { name: 'Ops hook', type: 'webhook', config: { url: 'https://hooks.example.test/in' }, key: 'ops-hook' },
    },
    {
      nav: 'Maintenance',
      path: '/api/v1/maintenance-windows',
      withMonitors: true,
      name: 'Nightly upgrade',
      body: {
        name: 'Nightly upgrade',
        starts_at: '2030-01-01T02:00:00Z',
        duration_minutes: 30,
        repeat: 'none',
        timezone: 'UTC',
        key: 'nightly-upgrade',
      },
    },
    {
      nav: 'Status pages',
      path: '/api/v1/status-pages',
      withMonitors: true,
      name: 'Acme services',
      body: { slug: 'acme-managed', title: 'Acme services', key: 'acme-public' },
    },
  ])('marks a managed $nav entry and asks before its form opens', async ({ nav: screen, path, name, body, withMonitors }) => {
    const data = { ...body, managed_by: 'config', ...(withMonitors ? { monitor_ids: [managedId] } : {}) };
    const res = await page.request.post(`${appUrl}${path}`, { data, headers: { Origin: appUrl } });
    expect({ status: res.status(), body: res.status() === 201 ? null : await res.text() }).toEqual({ status: 201, body: null });

    await nav(screen);
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText(MARK, { exact: true }).waitFor();
    expect(await row.locator('.managed-mark').getAttribute('title')).toBe(`Declared in uptime.yaml with the key "${body.key}"`);
    const form = page.getByRole('form', { name: `Edit ${name}` });

    await row.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    await question().waitFor();
    expect(await question().textContent()).toContain(`key ${body.key}`);
    expect(await form.count()).toBe(0);
    await question().getByRole('button', { name: 'Cancel', exact: true }).click();
    await question().waitFor({ state: 'detached' });
    expect(await form.count()).toBe(0);

    await row.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    await question().getByRole('button', { name: 'Continue editing', exact: true }).click();
    await form.waitFor();
    expect(await form.getByText(MARK, { exact: true }).count()).toBe(1);
    await checkPage(`managed-${body.key}`);
  });
});
