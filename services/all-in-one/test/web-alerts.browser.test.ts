import type { Page } from 'playwright-core';
import { answer, waitFor, type FakeHttpServer } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What the page fetches by itself (a refresh every 2 to 15 s) shows within this. */
const SEEN_WITHIN = 45_000;
/** The monitor's "Slow after" (ms); the target answers later than this once it is made slow. */
const SLOW_AFTER_MS = 150;
const TARGET_DELAY_MS = 600;

interface AlertSettings {
  alert_on_slow: boolean;
  certificate_expiry_days: number;
}

/**
 * The slow and certificate alert settings (docs/alert-rules.md) and the slow notification they
 * bring (docs/web.md), in headless Chromium against the real api, check-worker and notifier, as
 * web-followups.browser.test.ts does: by role and accessible name, every page checked with
 * axe-core and left as a screenshot in test-output/.
 */
describe('the web app: slow and certificate alerts', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let target: FakeHttpServer;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '5252', email: 'ada@example.com', name: 'Ada Lovelace' }, target: answer(200, 'fast') });
    ({ stack, target, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, notice, checkPage, refreshed, signIn, addMonitor } = appDriver(() => page);
  /** The monitor's id, from the address of its page. */
  const monitorId = (): number => Number(/\/monitors\/(\d+)/.exec(page.url())?.[1]);
  /** The saved alert settings as the page's own session reads them. */
  const alertSettings = async (): Promise<AlertSettings> => {
    const res = await page.request.get(`${appUrl}/api/v1/monitors/${monitorId()}/alerts`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { data: AlertSettings }).data;
  };

  it('1. turns on slow alerts and sets the certificate expiry days in the alert settings, kept after a reload', async () => {
    await signIn(appUrl);
    await addMonitor('Api', `${target.url}/api`, { 'Slow after': String(SLOW_AFTER_MS) });

    const alerts = page.getByRole('region', { name: 'Alert settings' });
    const slow = alerts.getByRole('checkbox', { name: 'Tell me when it becomes slow, and when it is fast again' });
    const certificateDays = alerts.getByLabel('Certificate expiry alert (days before; 0: off)');
    expect(await slow.isChecked()).toBe(false);
    await slow.check();
    await certificateDays.fill('21');
    await alerts.getByRole('button', { name: 'Save alert settings' }).click();
    await notice('Alert settings saved');
    expect(await alertSettings()).toMatchObject({ alert_on_slow: true, certificate_expiry_days: 21 });

    await page.reload();
    await slow.waitFor();
    expect(await slow.isChecked()).toBe(true);
    expect(await certificateDays.inputValue()).toBe('21');
    await checkPage('monitor-alert-slow');
  });

  it('2. lists the slow notification with its buttons once the monitor answers slower than its threshold, and filters by type', async () => {
    const id = monitorId();
    target.respond((req, res) => setTimeout(() => answer(200, 'slow')(req, res), TARGET_DELAY_MS));
    await waitFor(
      async () =>
        ((await stack.ds.query(`SELECT 1 FROM notifications WHERE monitor_id = $1 AND type = 'slow'`, [id])) as unknown[]).length > 0,
      { what: 'a slow notification on the server', timeoutMs: 30_000, intervalMs: 100 },
    );

    // Active (the default view): a slow notification lasts until the monitor is fast again.
    await nav('Notifications');
    const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Api', exact: true }) });
    const slowItem = item.filter({ hasText: 'Slow' });
    await refreshed(slowItem);
    expect(await slowItem.getByText('Active', { exact: true }).count()).toBe(1);
    for (const button of ['Deliveries', 'Acknowledge', 'Resolve']) {
      const b = slowItem.getByRole('button', { name: button, exact: true });
      expect(await b.count()).toBe(1);
      // Each button says which notification it acts on.
      expect(await b.getAttribute('aria-describedby')).toBeTruthy();
    }
    expect(await slowItem.getByText('slow notification of Api').count()).toBe(1);
    await checkPage('notifications-slow');

    // Acknowledged: marked so, and the button goes; Resolve stays while it is active.
    await slowItem.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await slowItem.getByText('Acknowledged', { exact: true }).waitFor({ timeout: SEEN_WITHIN });
    expect(await slowItem.getByRole('button', { name: 'Acknowledge', exact: true }).count()).toBe(0);
    expect(await slowItem.getByRole('button', { name: 'Resolve', exact: true }).count()).toBe(1);

    // All, filtered to the slow type: only slow notifications, this one among them.
    await page.getByRole('group', { name: 'Which notifications' }).getByRole('button', { name: 'All', exact: true }).click();
    const filters = page.getByRole('search', { name: 'Filter notifications' });
    const type = filters.getByRole('combobox', { name: 'Type' });
    // The filters come with the All view's render: counting before it would count nothing.
    await type.waitFor();
    expect(await type.getByRole('option', { name: 'Slow', exact: true }).count()).toBe(1);
    await type.selectOption({ label: 'Slow' });
    expect(new URL(page.url()).searchParams.get('type')).toBe('slow');
    const listed = page.getByRole('region', { name: 'All notifications' }).getByRole('listitem');
    await listed.filter({ has: page.getByRole('link', { name: 'Api', exact: true }) }).first().waitFor({ timeout: SEEN_WITHIN });
    expect(await listed.filter({ has: page.getByRole('link') }).filter({ hasNotText: 'Slow' }).count()).toBe(0);
    await checkPage('notifications-slow-filter');
  });
});
