import path from 'node:path';
import { aCaller } from '@uptime/testing';
import { OUTPUT_DIR, startBrowserHarness, type BrowserHarness } from './support/browser-harness';

jest.setTimeout(90_000);


/**
 * The explorer as a person uses it: headless Chromium opens /api/docs, sees the monitor
 * operations, authorizes with an API token, runs "List monitors" and sees a 200 with the
 * caller's monitor. A screenshot is kept in test-output/.
 */
describe('the API explorer in a browser', () => {
  let b: BrowserHarness;
  beforeAll(async () => {
    b = await startBrowserHarness();
  });
  afterAll(() => b?.close());

  it('lists the monitor operations and runs "List monitors" with a bearer token', async () => {
    const { user, token } = await aCaller(b.api.ds);
    const created = await fetch(`${b.baseUrl}/api/v1/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Explorer target', url: 'https://example.com/health', type: 'http' }),
    });
    expect(created.status).toBe(201);

    const page = await b.page();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    const sentAuthorization: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/v1/monitors') sentAuthorization.push(req.headers().authorization ?? '(none)');
    });

    const opened = await page.goto(`${b.baseUrl}/api/docs`);
    expect(opened?.status()).toBe(200);
    const listMonitors = page.locator('#operations-Monitors-listMonitors');
    await listMonitors.waitFor({ timeout: 20_000 });
    await expect(page.locator('#operations-Monitors-createMonitor').count()).resolves.toBe(1);
    await expect(page.locator('#operations-Monitors-getMonitorStats').count()).resolves.toBe(1);

    await page.locator('button.authorize').first().click();
    const dialog = page.locator('.dialog-ux');
    await dialog.locator('input').first().fill(token);
    await dialog.locator('button.modal-btn.auth.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();

    await listMonitors.locator('.opblock-summary').first().click();
    await listMonitors.locator('button.try-out__btn').click();
    await listMonitors.locator('button.execute').click();
    const status = listMonitors.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.innerText()).trim()).toBe('200');
    await expect(listMonitors.locator('.live-responses-table tr.response .response-col_description').first().innerText()).resolves.toContain('Explorer target');
    expect(sentAuthorization).toEqual([`Bearer ${token}`]);

    await page.screenshot({ path: path.join(OUTPUT_DIR, 'api-explorer.png'), fullPage: false });
    expect(problems).toEqual([]);
    expect(user.id).toBeGreaterThan(0);
  });
});
