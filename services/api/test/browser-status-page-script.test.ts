import path from 'node:path';
import { aCaller, aMonitor } from '@uptime/testing';
import { OUTPUT_DIR, startBrowserHarness, type BrowserHarness } from './support/browser-harness';

jest.setTimeout(90_000);

/**
 * The status page with JavaScript on (docs/status-pages.md): its one script, allowed by the CSP,
 * shows times in the visitor's zone (here New York) and reads the page afresh every 60 s.
 */
describe('a status page in a browser with JavaScript', () => {
  let b: BrowserHarness;
  beforeAll(async () => {
    b = await startBrowserHarness({ timezoneId: 'America/New_York', locale: 'en-US' });
  });
  afterAll(() => b?.close());

  it("shows maintenance in the visitor's zone and refreshes itself every 60 s", async () => {
    const { user, auth } = await aCaller(b.api.ds);
    const db = await aMonitor(b.api.ds, user, { name: 'Database', status: 'online' });
    const post = async (pathname: string, body: object): Promise<void> => {
      const res = await fetch(`${b.baseUrl}/api/v1${pathname}`, {
        method: 'POST',
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
    };
    await post('/status-pages', { slug: 'acme-live', title: 'Acme', monitor_ids: [db.id] });
    // Tomorrow 15:00 UTC: 10:00 or 11:00 in New York, whatever the season.
    const start = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 86_400_000 + 15 * 3_600_000);
    await post('/maintenance-windows', {
      name: 'Database upgrade',
      monitor_ids: [db.id],
      starts_at: start.toISOString(),
      duration_minutes: 60,
      repeat: 'none',
      timezone: 'UTC',
    });

    const page = await b.page();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused/i.test(m.text())) refused.push(m.text());
    });
    await page.clock.install();
    await page.goto(`${b.baseUrl}/status/acme-live`);
    const notice = page.getByRole('region', { name: 'Maintenance' });
    await expect(notice.innerText()).resolves.toMatch(
      /Scheduled: Database upgrade\n+.*1[01]:00 AM E[SD]T to .*1[12]:00 (AM|PM) E[SD]T · Database/,
    );
    await expect(notice.innerText()).resolves.not.toContain('UTC');
    await page.screenshot({ path: path.join(OUTPUT_DIR, 'status-page-local-times.png'), fullPage: true });

    const reloaded = page.waitForEvent('load');
    await page.clock.fastForward(60_000);
    await reloaded;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Acme');
    expect(refused).toEqual([]);
  });
});
