import type { Page } from 'playwright-core';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What the page fetches by itself (a refresh every 2 to 15 s) shows within this. */
const SEEN_WITHIN = 45_000;

/**
 * A ping monitor in the web app (docs/monitors.md, "ICMP ping"): chosen by its type in the form,
 * which then asks for its echo requests only, checked by the real check-worker against
 * 127.0.0.1, listed with its target, and its checks shown with their packet loss and round
 * trips. Headless Chromium, elements by role and accessible name.
 */
describe('a ping monitor in the browser', () => {
  let app: BrowserApp;
  let page: Page;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '5252', email: 'radia@example.com', name: 'Radia Perlman' } });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { heading, nav, notice, checkPage } = appDriver(() => page);

  it('adds a ping monitor through the form and sees it online, with its target and its packet loss, in its checks and when tested now', async () => {
    await page.goto(`${app.appUrl}/`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await heading().filter({ hasText: 'Dashboard' }).waitFor();

    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    await page.getByLabel('Type').selectOption({ label: 'Ping (ICMP)' });
    // The http and tcp fields give way to the ping type's own.
    expect(await page.getByLabel('Method').count()).toBe(0);
    expect(await page.getByLabel('Expected content').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Connection' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Ping' }).count()).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Gateway');
    await page.getByLabel('URL', { exact: true }).fill('ping://127.0.0.1');
    await page.getByLabel('Check interval').fill('1');
    await page.getByLabel('Timeout').fill('5');
    await page.getByLabel('Echo requests').fill('2');
    await checkPage('monitor-form-ping');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Monitor "Gateway" added');
    await heading().filter({ hasText: 'Gateway' }).waitFor();
    await monitorOnServer(app.stack.ds, 'Gateway', 'online');
    await heading().filter({ hasText: 'Online' }).waitFor({ timeout: SEEN_WITHIN });
    await page.getByText('ping://127.0.0.1').first().waitFor();
    await page.getByText(/packet loss 0 %, round trips [\d.]+ \/ [\d.]+ \/ [\d.]+ ms/).first().waitFor({ timeout: SEEN_WITHIN });
    await page.getByRole('button', { name: 'Test now' }).click();
    await page.getByRole('status').filter({ hasText: /Test result: .*packet loss 0 %, round trips/ }).waitFor();
    await checkPage('monitor-detail-ping');

    await nav('Monitors');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Gateway', exact: true }) });
    await row.waitFor();
    expect(await row.getByText('ping://127.0.0.1', { exact: true }).count()).toBe(1);
    // The type's figure beside the response time: the latest check's packet loss, as its bead says too.
    await row.getByText('0 % loss', { exact: true }).waitFor({ timeout: SEEN_WITHIN });
    expect(await row.getByRole('button', { name: /· 0 % loss/ }).count()).toBeGreaterThan(0);
    await checkPage('monitors-ping');

    const [stored] = await app.stack.ds.query(`SELECT type, url, ping_count FROM monitors WHERE name = 'Gateway'`);
    expect(stored).toEqual({ type: 'ping', url: 'ping://127.0.0.1', ping_count: 2 });
  });
});
