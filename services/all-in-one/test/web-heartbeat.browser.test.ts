import type { Page } from 'playwright-core';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/**
 * A heartbeat monitor in the web app (docs/heartbeats.md): added through its form (a cron in a
 * zone, with the next five expected times shown), its URL and snippets copied from its page, a
 * real ping with a body sent to that URL turning it online through the real check-worker, and the
 * ping log showing the body. Headless Chromium, elements by role and accessible name.
 */
describe('a heartbeat monitor in the browser', () => {
  let app: BrowserApp;
  let page: Page;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '5252', email: 'ada@example.com', name: 'Ada Lovelace' } });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { heading, notice, checkPage } = appDriver(() => page);

  it('adds a heartbeat with a cron, shows its URL and snippets, and logs a ping with its body', async () => {
    await page.goto(`${app.appUrl}/`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await heading().filter({ hasText: 'Dashboard' }).waitFor();

    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('button', { name: 'A heartbeat your job pings' }).click();
    await heading().filter({ hasText: 'Add heartbeat' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Nightly backup');
    await page.getByLabel('Schedule').selectOption({ label: 'On a cron schedule' });
    await page.getByLabel('Cron expression').fill('30 2 * * *');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Grace').fill('900');
    const preview = page.getByRole('region', { name: 'Next expected pings' });
    expect(await preview.getByRole('listitem').count()).toBe(5);
    await checkPage('heartbeat-form');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Heartbeat "Nightly backup" added');
    await heading().filter({ hasText: 'Nightly backup' }).waitFor();

    const url = await page.getByRole('group', { name: 'Heartbeat URL' }).locator('code').textContent();
    expect(url).toMatch(new RegExp(`^${app.appUrl}/ping/[A-Za-z0-9_-]{43}$`));
    const crontab = await page.getByRole('group', { name: 'Crontab line' }).locator('code').textContent();
    expect(crontab).toBe(`30 2 * * * /path/to/job.sh && curl -fsS -m 10 --retry 5 ${url}`);
    expect(await page.getByRole('button', { name: 'Copy Heartbeat URL' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Test now' }).count()).toBe(0);

    const answer = await fetch(`${url}/0`, { method: 'POST', body: 'backup done: 1.2 GB', headers: { 'Content-Type': 'text/plain' } });
    expect(answer.status).toBe(200);
    await monitorOnServer(app.stack.ds, 'Nightly backup', 'online');
    await page.reload();
    const log = page.getByRole('region', { name: 'Ping log' });
    await log.getByRole('cell', { name: 'exit 0' }).waitFor({ timeout: 30_000 });
    await log.getByRole('button', { name: /Show body \(19 bytes\)/ }).click();
    await page.getByText('backup done: 1.2 GB').waitFor();
    await checkPage('heartbeat-detail');

    const [stored] = await app.stack.ds.query(`SELECT type, url, heartbeat_cron, heartbeat_timezone, heartbeat_grace FROM monitors WHERE name = 'Nightly backup'`);
    expect(stored).toEqual({ type: 'heartbeat', url: '', heartbeat_cron: '30 2 * * *', heartbeat_timezone: 'Europe/Berlin', heartbeat_grace: 900 });
  });
});
