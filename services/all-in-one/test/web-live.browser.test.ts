import type { Page, Request } from 'playwright-core';
import { answer } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What docs/web.md promises: a recorded result is on the open page within this long. */
const WITHIN_MS = 2_000;
/** Longer than every page's polling period (10, 15 and 30 s): a poll would fire in it. */
const PAST_EVERY_POLL_MS = 60_000;

/**
 * Live updates (docs/web.md, "Live updates"): with the stream up, the list, a monitor's page and
 * the dashboard show a result the check-worker records within 2 s, and no page polls however long
 * it stays open; when the stream drops the page says so and polls again, until it is back.
 * Headless Chromium against the real api, check-worker and notifier, by role and accessible name.
 */
describe('the web app: live updates', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  let shopId: number;
  /** The API requests the page made (the stream aside), since the last `requests.length = 0`. */
  const requests: string[] = [];

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '7272', email: 'ada@example.com', name: 'Ada Lovelace' }, target: answer(200, 'ok') });
    ({ stack, page, appUrl } = app);
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/v1/') && url.pathname !== '/api/v1/live') requests.push(`${r.method()} ${url.pathname}`);
    });
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, heading, signIn, checkPage } = appDriver(() => page);
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

  async function act(path: string): Promise<void> {
    const res = await page.request.post(`${appUrl}${path}`, { headers: { Origin: appUrl } });
    expect(res.status()).toBe(200);
  }

  /** A check recorded now through the product: resuming a monitor checks it at once (docs/monitors.md). */
  async function checkNow(id: number): Promise<void> {
    await act(`/api/v1/monitors/${id}/pause`);
    await act(`/api/v1/monitors/${id}/resume`);
  }

  /** The page keeps still while its clock runs past every polling period: not one request. */
  async function expectNoPolling(): Promise<void> {
    requests.length = 0;
    await page.clock.fastForward(PAST_EVERY_POLL_MS);
    await page.waitForTimeout(1_000);
    expect(requests).toEqual([]);
  }

  it('1. opens the stream with the dashboard, which shows a new monitor\'s first check without asking', async () => {
    await signIn(appUrl);
    await page.getByText(/· live$/).waitFor();
    const res = await page.request.post(`${appUrl}/api/v1/monitors`, {
      data: { name: 'Shop', url: `${app.target.url}/shop`, type: 'http', check_interval: 300, timeout: 5 },
      headers: { Origin: appUrl },
    });
    expect(res.status()).toBe(201);
    shopId = ((await res.json()) as { data: { id: number } }).data.id;
    await monitorOnServer(stack.ds, 'Shop', 'online');
    await page.getByRole('link', { name: '1 online', exact: true }).waitFor({ timeout: WITHIN_MS });
    // The page done loading: the "Latest checks" card asked once for the new monitor's beads, an id
    // it had none for (docs/web.md, "Beads"); from then on only the stream adds to them.
    await page.getByRole('region', { name: 'Latest checks' }).getByRole('group', { name: 'Latest checks of Shop', exact: true }).waitFor({ timeout: WITHIN_MS });
    await expectNoPolling();
  });

  it('2. shows a failed check in the list within 2 s, without polling before it', async () => {
    await nav('Monitors');
    await row('Shop').getByText('Online', { exact: true }).waitFor();
    await expectNoPolling();
    app.target.respond(answer(500, 'boom'));
    await checkNow(shopId);
    await monitorOnServer(stack.ds, 'Shop', 'offline');
    await row('Shop').getByText('Offline', { exact: true }).waitFor({ timeout: WITHIN_MS });
    await checkPage('live-monitors');
  });

  it('3. shows a recovery on the monitor\'s page within 2 s, its header and its recent checks', async () => {
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await heading().filter({ hasText: 'Offline' }).waitFor();
    // The page done loading: its alert settings' channel picker asked for the channels once.
    await page.getByRole('group', { name: 'Channels', exact: true }).getByRole('link', { name: 'add one' }).waitFor();
    await expectNoPolling();
    app.target.respond(answer(200, 'ok'));
    await checkNow(shopId);
    await monitorOnServer(stack.ds, 'Shop', 'online');
    await heading().filter({ hasText: 'Online' }).waitFor({ timeout: WITHIN_MS });
    await page.getByRole('region', { name: 'Recent checks' }).getByRole('cell', { name: 'Up', exact: true }).first().waitFor({ timeout: WITHIN_MS });
  });

  it('4. lists a monitor that goes down under "Down now" on the dashboard within 2 s', async () => {
    await nav('Dashboard');
    const downNow = page.getByRole('region', { name: 'Down now' });
    await downNow.getByText('Every monitor that is checked is up.').waitFor();
    await expectNoPolling();
    app.target.respond(answer(500, 'boom'));
    await checkNow(shopId);
    await monitorOnServer(stack.ds, 'Shop', 'offline');
    await downNow.getByRole('link', { name: 'Shop', exact: true }).waitFor({ timeout: WITHIN_MS });
    await checkPage('live-dashboard');
  });

  it('5. says so when the stream drops, polls meanwhile, and stops polling once it is back', async () => {
    // Every new stream is refused, and the open one cut: the browser cannot get it back.
    await page.route('**/api/v1/live*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }));
    stack.api.server.closeAllConnections();
    const notice = page.getByRole('status').filter({ hasText: 'Live updates are interrupted' });
    await notice.waitFor({ timeout: 10_000 });
    await checkPage('live-interrupted');
    requests.length = 0;
    await page.clock.fastForward(PAST_EVERY_POLL_MS);
    await page.waitForTimeout(1_000);
    expect(requests).toContain('GET /api/v1/dashboard');

    await page.unroute('**/api/v1/live*');
    // The app opens a refused stream afresh after 10 s of its clock.
    await page.clock.fastForward(15_000);
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByText(/· live$/).waitFor();
    await expectNoPolling();
    // Chromium logged the refused streams and the cut requests: those were the point.
    app.problems.splice(0, app.problems.length, ...app.problems.filter((p) => !/status of 503|ERR_|EventSource/.test(p)));
  });
});
