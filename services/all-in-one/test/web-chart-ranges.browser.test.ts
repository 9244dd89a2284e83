import type { Page } from 'playwright-core';
import { answer, freePort, waitFor } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(240_000);

const RANGES = ['1h', '3h', '6h', '24h', '7d', '30d', '90d'] as const;
const SHORT = new Set<string>(['1h', '3h', '6h']);
/**
 * What a longer range is shown at, coming from the one before it in this order: 24h its default
 * (per check does not fit), then the bucket shown so far while the API answers it (5m over 7d),
 * else the range's default (1h over 30d), kept over 90d.
 */
const BUCKET: Record<string, string> = { '24h': '5m', '7d': '5m', '30d': '1h', '90d': '1h' };

/**
 * The monitor page's chart (docs/web.md, "The response-time chart"): every range from 1 h to
 * 90 d, each check its own point up to 6 h; an offline monitor whose checks never got an answer is
 * said in words and shaded red, and the chart counts the same checks as the figures beside it; a
 * check in a maintenance window is shaded blue and counted nowhere. Headless Chromium against the
 * real stack, by role and accessible name.
 */
describe('the web app: chart ranges', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  let goneId: number;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '7474', email: 'alan@example.com', name: 'Alan Turing' }, target: answer(200, 'ok') });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { signIn, heading, checkPage } = appDriver(() => page);
  const region = () => page.getByRole('region', { name: 'Response time', exact: true });

  async function post(path: string, data?: unknown): Promise<{ data: { id: number } }> {
    const res = await page.request.post(`${appUrl}${path}`, { data, headers: { Origin: appUrl } });
    const body = (await res.json()) as { data: { id: number } };
    if (res.status() >= 300) throw new Error(`POST ${path} answered ${res.status()}: ${JSON.stringify(body)}`);
    return body;
  }

  it('1. takes an unreachable monitor offline through the product, its checks without a response time', async () => {
    await signIn(appUrl);
    // Nothing listens there: every check is refused before an answer.
    const closed = await freePort();
    goneId = (await post('/api/v1/monitors', { name: 'Gone', url: `http://127.0.0.1:${closed}/`, type: 'http', check_interval: 1, timeout: 5 })).data.id;
    await monitorOnServer(stack.ds, 'Gone', 'offline');
    const count = async () => ((await stack.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [goneId])) as { n: number }[])[0]!.n;
    await waitFor(async () => (await count()) >= 3, { what: 'three checks of Gone', timeoutMs: 20_000 });
    await post(`/api/v1/monitors/${goneId}/pause`, { reason: 'holding the checks still' });
    // What the pause caught in flight lands within a moment; then the checks stay as they are.
    await page.waitForTimeout(1_500);
    const rows: { ok: boolean; response_time: number | null }[] = await stack.ds.query('SELECT ok, response_time FROM check_results WHERE monitor_id = $1', [goneId]);
    expect(rows.every((r) => !r.ok && r.response_time === null)).toBe(true);
    // And one check made in a maintenance window, a minute ago: drawn blue, counted nowhere.
    await stack.ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok, response_time, maintenance) VALUES ($1, now() - interval '1 minute', true, 45, true)`, [goneId]);
  });

  it('2. offers every range, per check up to 6 h, and the chart counts the checks the figures count, never "No checks"', async () => {
    const [{ n: failed }]: { n: number }[] = await stack.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1 AND NOT maintenance', [goneId]);
    await page.goto(`${appUrl}/monitors/${goneId}`);
    await heading().filter({ hasText: 'Gone' }).waitFor();
    const period = region().getByRole('group', { name: 'Period' });
    const granularity = region().getByRole('combobox', { name: 'Granularity' });
    const names = await period.getByRole('button').evaluateAll((els) => els.map((e) => e.textContent));
    expect(names).toEqual([...RANGES]);
    for (const range of RANGES) {
      await period.getByRole('button', { name: range, exact: true }).click();
      expect(await period.getByRole('button', { name: range, exact: true }).getAttribute('aria-pressed')).toBe('true');
      const chart = region().getByRole('img', { name: new RegExp(`per (check|5m|1h|1d) over ${range}: `) });
      await chart.waitFor();
      const label = (await chart.getAttribute('aria-label'))!;
      if (SHORT.has(range)) {
        expect(label).toMatch(new RegExp(`^Response time per check over ${range}: ${failed} checks, ${failed} failed, 1 in maintenance$`));
        expect(await granularity.inputValue()).toBe('check');
        await region().getByText('Shaded blue: in a maintenance window').waitFor();
      } else {
        expect(label).toMatch(new RegExp(`^Mean response time per ${BUCKET[range]} over ${range}: ${failed} checks, ${failed} failed$`));
        // Per check is answered up to 6 hours only.
        expect(await granularity.getByRole('option', { name: 'per check' }).isDisabled()).toBe(true);
      }
      const text = (await region().textContent()) ?? '';
      expect(text).not.toContain('No checks in this period yet.');
      const maintenance = SHORT.has(range) ? ', 1 in maintenance' : '';
      expect(text).toContain(`No response time to draw: ${failed} checks, ${failed} failed${maintenance}, none with a response time.`);
      expect(text).toContain(`Checks0 up / ${failed} down`);
      expect(text).toContain('Shaded red: checks failed');
      if (range === '1h') await checkPage('chart-1h');
      if (range === '7d') await checkPage('chart-7d');
    }
  });

  it('3. draws a reachable monitor\'s checks as a line, per check over 1 h, and fits a phone', async () => {
    const shop = (await post('/api/v1/monitors', { name: 'Shop', url: `${app.target.url}/shop`, type: 'http', check_interval: 1, timeout: 5 })).data.id;
    await waitFor(
      async () => ((await stack.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [shop])) as { n: number }[])[0]!.n >= 3,
      { what: 'three checks of Shop', timeoutMs: 20_000 },
    );
    await post(`/api/v1/monitors/${shop}/pause`, { reason: null });
    await page.waitForTimeout(1_500);
    const [{ n }]: { n: number }[] = await stack.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [shop]);
    await page.goto(`${appUrl}/monitors/${shop}`);
    await heading().filter({ hasText: 'Shop' }).waitFor();
    await region().getByRole('group', { name: 'Period' }).getByRole('button', { name: '1h', exact: true }).click();
    await region().getByRole('img', { name: `Response time per check over 1h: ${n} checks, 0 failed` }).waitFor();
    const text = (await region().textContent()) ?? '';
    expect(text).toContain(`Checks${n} up / 0 down`);
    expect(text).not.toContain('Shaded red');
    expect(text).not.toContain('No response time to draw');
    await checkPage('chart-1h-up');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${appUrl}/monitors/${goneId}`);
    await heading().filter({ hasText: 'Gone' }).waitFor();
    await region().getByRole('group', { name: 'Period' }).getByRole('button', { name: '1h', exact: true }).click();
    await region().getByRole('img', { name: /per check over 1h/ }).waitFor();
    expect(await page.evaluate('document.scrollingElement.scrollWidth <= window.innerWidth')).toBe(true);
    await checkPage('chart-1h-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
