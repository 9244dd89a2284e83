import type { Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/**
 * The Audit log page (docs/audit-log.md): a change made in the app shows there with who made it,
 * the action, the resource and the names of the fields sent; the filters narrow it; a viewer is
 * told that only owners and admins can see it. Headless Chromium against the real stack, by role
 * and accessible name.
 */
describe('the web app: the audit log', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  const email = 'ada@example.com';

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '8181', email, name: 'Ada Lovelace' } });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, checkPage, signIn, addMonitor } = appDriver(() => page);
  const entries = () => page.getByRole('region', { name: 'Audit log entries' });
  const rowOf = (action: string) => entries().getByRole('row').filter({ has: page.getByText(action, { exact: true }) });

  it('1. shows a monitor just added: who, what, which monitor, the fields sent', async () => {
    await signIn(appUrl);
    await addMonitor('Shop', `${app.target.url}/shop`);
    const [monitor]: { id: number }[] = await stack.ds.query(`SELECT id FROM monitors WHERE name = 'Shop'`);
    await nav('Audit log');
    const row = rowOf('monitor.create');
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      email,
      'monitor.create',
      `Monitor ${monitor!.id}`,
      expect.stringMatching(/^check_interval, .*name.*timeout.*url/),
      expect.stringMatching(/127\.0\.0\.1|::1/),
    ]);
    for (const column of ['When', 'Who', 'Action', 'Resource', 'Changed fields', 'IP']) {
      expect(await entries().getByRole('columnheader', { name: column, exact: true }).count()).toBe(1);
    }
    await checkPage('audit-log');
  });

  it('2. narrows by action and by resource type', async () => {
    const [monitor]: { id: number }[] = await stack.ds.query(`SELECT id FROM monitors WHERE name = 'Shop'`);
    const res = await page.request.post(`${appUrl}/api/v1/monitors/${monitor!.id}/pause`, { data: { reason: 'Deploy' }, headers: { Origin: appUrl } });
    expect(res.status()).toBe(200);
    await page.reload();
    await rowOf('monitor.pause').waitFor();
    await page.getByLabel('Action').selectOption('monitor.create');
    await rowOf('monitor.pause').waitFor({ state: 'detached' });
    expect(await rowOf('monitor.create').count()).toBe(1);
    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('Resource type').selectOption({ label: 'Agent' });
    await entries().getByText('No entries match.').waitFor();
    await checkPage('audit-log-filtered');
  });

  it('3. tells a viewer that only owners and admins can see it', async () => {
    await stack.ds.query(
      `UPDATE organization_members SET role = 'viewer' WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email],
    );
    await page.goto(`${appUrl}/organization/audit-log`);
    await page.getByRole('alert').filter({ hasText: 'Only owners and admins can see the audit log' }).waitFor();
    expect(await entries().count()).toBe(0);
    await checkPage('audit-log-viewer');
  });
});
