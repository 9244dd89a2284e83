import Redis from 'ioredis';
import type { Browser, Page, Request, Route } from 'playwright-core';
import {
  aCaller,
  answer,
  startFakeHttpServer,
  startFakeOAuthProvider,
  waitFor,
  type FakeHttpServer,
  type FakeOAuthProvider,
} from '@uptime/testing';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';
import { appAddress, appDriver, collectPageProblems, ensureWebBuilt, launchChromium, openAppPage } from './support/web-browser';

jest.setTimeout(180_000);

const EMAIL = 'mary@example.com';
const FILLERS = 25;
/** A percentage as the app writes it: "100%", "96.55%". */
const PERCENT = String.raw`\d+(?:\.\d\d)?%`;

interface Created {
  id: number;
}

/**
 * What each page of the web app shows and does, item by item as issue 18 lists them, beyond the
 * scenario of web-app.browser.test.ts: both sign-in providers, the monitor list's tags, status
 * filter, pagination and row contents, a monitor's uptime figures, granularity switch, incidents,
 * check locations and agents, the three notification views and Resolve, agent credentials on
 * request, the dashboard's figures, an expired session, and a sign-out that forgets what was
 * cached. Headless Chromium against the real api, check-worker and notifier, Postgres and Redis,
 * fake GitHub and Google. Elements are found by role and accessible name only.
 */
describe('the web app, page by page', () => {
  let stack: InProcessStack;
  let github: FakeOAuthProvider;
  let google: FakeOAuthProvider;
  let shop: FakeHttpServer;
  let blog: FakeHttpServer;
  let redis: Redis;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let appUrl: string;
  let shopId: number;
  let blogId: number;

  beforeAll(async () => {
    ensureWebBuilt();
    [github, google, shop, blog] = await Promise.all([
      startFakeOAuthProvider('github'),
      startFakeOAuthProvider('google'),
      startFakeHttpServer(answer(200, 'shop ok')),
      startFakeHttpServer(answer(200, 'blog ok')),
    ]);
    google.signInAs({ id: '777', email: EMAIL, emailVerified: true, name: 'Mary Somerville' });
    const address = await appAddress();
    appUrl = address.appUrl;
    stack = await startInProcessStack({ env: { ...address.env, ...github.env, ...google.env } });
    redis = new Redis(stack.config.redis.url, { lazyConnect: true });
    browser = await launchChromium();
    page = await openAppPage(browser);
    problems = collectPageProblems(page);
  });

  afterAll(async () => {
    await browser?.close();
    redis?.disconnect();
    await stack?.close();
    await Promise.all([shop?.close(), blog?.close(), github?.close(), google?.close()]);
  });

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  const { heading, nav, notice, checkPage, refreshed } = appDriver(() => page);

  /** A POST with the page's own session, as the app makes it (its Origin passes the CSRF defence). */
  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await page.request.post(`${appUrl}${path}`, { data: body, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: T }).data;
  }
  const serverSays = async (id: number, status: string): Promise<void> => {
    await waitFor(
      async () => ((await stack.ds.query('SELECT status FROM monitors WHERE id = $1', [id])) as { status: string }[])[0]?.status === status,
      { what: `monitor ${id} ${status} on the server`, timeoutMs: 20_000, intervalMs: 50 },
    );
  };
  const count = async (sql: string, params: unknown[]): Promise<number> =>
    Number(((await stack.ds.query(sql, params)) as { n: string }[])[0]!.n);
  const monitorList = () => page.getByRole('region', { name: 'Monitor list', exact: true });

  it('offers a button for each configured provider, GitHub and Google, and signs in with Google', async () => {
    await page.goto(`${appUrl}/sign-in`);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await heading().filter({ hasText: 'Dashboard' }).waitFor();
    expect(google.requests.length).toBeGreaterThan(0);
    expect(github.requests).toEqual([]);
  });

  it('lists monitors with status, URL, uptime, response time and a 24-hour bar; filters by tag and status; pages through them', async () => {
    shopId = (
      await post<Created>('/api/v1/monitors', {
        name: 'Shop',
        url: `${shop.url}/`,
        type: 'http',
        check_interval: 1,
        timeout: 5,
        tags: ['production', 'eu'],
      })
    ).id;
    blogId = (
      await post<Created>('/api/v1/monitors', {
        name: 'Blog',
        url: `${blog.url}/`,
        type: 'http',
        check_interval: 1,
        timeout: 5,
        tags: ['staging'],
      })
    ).id;
    for (let i = 1; i <= FILLERS; i++) {
      const n = String(i).padStart(2, '0');
      await post('/api/v1/monitors', {
        name: `Filler ${n}`,
        url: `${shop.url}/filler-${n}`,
        type: 'http',
        check_interval: 3600,
        timeout: 5,
        tags: ['bulk'],
      });
    }
    // Each is checked once at once; the list then has their status, uptime and response time.
    await waitFor(async () => (await count(`SELECT count(*) AS n FROM monitors WHERE status <> 'online'`, [])) === 0, {
      what: 'every monitor checked and online',
      timeoutMs: 30_000,
    });

    await nav('Monitors');
    const total = FILLERS + 2;
    await page.getByText(`Page 1 of 2 · ${total} in total`).waitFor();
    // A header row and 25 monitors, each a link named by the monitor.
    expect(await monitorList().getByRole('row').count()).toBe(26);
    await page.getByRole('navigation', { name: 'Monitor pages' }).getByRole('button', { name: 'Next page' }).click();
    await page.getByText(`Page 2 of 2 · ${total} in total`).waitFor();
    expect(await monitorList().getByRole('row').count()).toBe(1 + total - 25);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    await page.getByRole('textbox', { name: 'Tags' }).fill('eu');
    await page.getByText('1 in total', { exact: true }).waitFor();
    const row = monitorList()
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) });
    expect(await monitorList().getByRole('link').count()).toBe(1);
    expect(await row.getByText('Online', { exact: true }).count()).toBe(1);
    expect(await row.getByRole('cell', { name: `${shop.url}/`, exact: true }).count()).toBe(1);
    expect(await row.getByRole('cell', { name: '100%', exact: true }).count()).toBe(1);
    expect(await row.getByRole('cell', { name: /^\d+ ms$/ }).count()).toBe(1);
    await row.getByRole('img', { name: /^Last 24 hours: (\d+) of \1 checked hours fully up$/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('tags')).toBe('eu');
    await checkPage('monitors-tags');

    await page.getByRole('textbox', { name: 'Tags' }).fill('');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('paused');
    await page.getByText('No monitor matches these filters.').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('online');
    await page.getByText(`Page 1 of 2 · ${total} in total`).waitFor();
  });

  it('shows a monitor: uptime over 24 h to 90 d, response times by period and granularity, incidents with durations, checks with their location', async () => {
    shop.respond(answer(500, 'broken'));
    await serverSays(shopId, 'offline');
    shop.respond(answer(200, 'shop ok'));
    await serverSays(shopId, 'online');
    await waitFor(
      async () => (await count('SELECT count(*) AS n FROM incidents WHERE monitor_id = $1 AND resolved_at IS NOT NULL', [shopId])) === 1,
      {
        what: 'the incident closed',
      },
    );

    await page.goto(`${appUrl}/monitors/${shopId}`);
    await heading().filter({ hasText: 'Shop' }).waitFor();
    await heading().filter({ hasText: 'Online' }).waitFor();
    // The page shows the last 15 checks, one a second: the failed one is among them while it is new.
    const latest = await page.request.get(`${appUrl}/api/v1/monitors/${shopId}/results?limit=1`);
    const where = ((await latest.json()) as { data: { location: string | null }[] }).data[0]!.location ?? 'Check worker';
    const checks = page.getByRole('region', { name: 'Recent checks', exact: true });
    // The checks' table loads after the heading: its header is counted once a row has arrived.
    await checks.getByRole('cell', { name: where, exact: true }).first().waitFor();
    expect(await checks.getByRole('columnheader', { name: 'Location' }).count()).toBe(1);
    expect(
      await checks
        .getByRole('row')
        .filter({ has: page.getByText('Down', { exact: true }) })
        .count(),
    ).toBeGreaterThan(0);

    const uptime = page.getByRole('region', { name: 'Uptime', exact: true });
    const figures = new RegExp(`^Uptime 24 h${PERCENT}Uptime 7 d${PERCENT}Uptime 30 d${PERCENT}Uptime 90 d${PERCENT}Last response`);
    await waitFor(async () => figures.test((await uptime.textContent()) ?? ''), { what: 'the four uptime figures' });
    // One failed check among the others: below 100 % over every period.
    expect(await uptime.textContent()).not.toMatch(/Uptime \d+ [hd]100%/);

    const responseTimes = page.getByRole('region', { name: 'Response time', exact: true });
    const granularity = responseTimes.getByRole('combobox', { name: 'Granularity' });
    const period = responseTimes.getByRole('group', { name: 'Period' });
    // A monitor minutes old opens over the hour, a point per check (docs/web.md, "The response-time chart").
    await responseTimes.getByRole('img', { name: /^Response time per check over 1h: / }).waitFor();
    expect(await period.getByRole('button', { name: '1h', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await period.getByRole('button', { name: '24h', exact: true }).click();
    await responseTimes.getByRole('img', { name: /^Mean response time per 5m over 24h: / }).waitFor();
    await granularity.selectOption('1h');
    await responseTimes.getByRole('img', { name: /^Mean response time per 1h over 24h: / }).waitFor();
    await period.getByRole('button', { name: '90d', exact: true }).click();
    expect(await period.getByRole('button', { name: '90d', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await responseTimes.getByRole('img', { name: /^Mean response time per 1h over 90d: / }).waitFor();
    // 5-minute buckets over 90 days are more than the API answers: not offered.
    expect(await granularity.getByRole('option', { name: '5m' }).isDisabled()).toBe(true);
    await granularity.selectOption('1d');
    await responseTimes.getByRole('img', { name: /^Mean response time per 1d over 90d: / }).waitFor();
    expect(await responseTimes.textContent()).toMatch(/Downtime\d+ s in 1 incident/);

    const incident = page.getByRole('region', { name: 'Incidents', exact: true }).getByRole('listitem');
    expect(await incident.count()).toBe(1);
    expect(await incident.getByText('Resolved', { exact: true }).count()).toBe(1);
    expect(await incident.textContent()).toMatch(/lasted \d+ s/);

    await checkPage('monitor-incident');
  });

  it("assigns an agent to the monitor and removes it, lists others' public agents apart, and shows credentials only on request", async () => {
    const agent = await post<{ id: number; secret: string }>('/api/v1/agents', {
      name: 'paris-1',
      location: 'Paris',
      url: `${shop.url}/agent`,
      is_public: false,
    });
    // In maintenance, so the workers never call it (the target is no agent) while it is assigned.
    const paused = await page.request.patch(`${appUrl}/api/v1/agents/${agent.id}/status`, {
      data: { status: 'maintenance' },
      headers: { Origin: appUrl },
    });
    expect(paused.status()).toBe(200);
    // Another user's public agent: listed apart, and nothing of it can be changed or revealed here.
    const other = await aCaller(stack.ds, { email: 'other@example.com' });
    const shared = await fetch(`${appUrl}/api/v1/agents`, {
      method: 'POST',
      headers: { Authorization: other.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'tokyo-1', location: 'Tokyo', url: `${shop.url}/agent`, is_public: true }),
    });
    expect(shared.status).toBe(201);

    // The card read the agents when the page opened, before these existed.
    await page.reload();
    await heading().filter({ hasText: 'Shop' }).waitFor();
    const card = page.getByRole('region', { name: 'Assigned agents', exact: true });
    await card.getByText('Checked by the check workers only.', { exact: false }).waitFor();
    await card.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'paris-1 (Paris)' });
    await card.getByRole('button', { name: 'Assign agent' }).click();
    await notice('Agent assigned');
    const remove = card.getByRole('button', { name: 'Remove paris-1' });
    await remove.waitFor();
    expect(await card.getByRole('listitem').filter({ hasText: 'Paris' }).count()).toBe(1);
    await remove.click();
    await notice('Agent removed');
    await card.getByText('Checked by the check workers only.', { exact: false }).waitFor();

    await nav('Agents');
    const mine = page.getByRole('region', { name: 'Your agents', exact: true });
    const others = page.getByRole('region', { name: 'Public agents of others', exact: true });
    await others.getByText('tokyo-1', { exact: true }).waitFor();
    expect(await others.getByRole('button').count()).toBe(0);
    expect(await mine.getByText('tokyo-1', { exact: true }).count()).toBe(0);
    expect(await mine.getByText('paris-1', { exact: true }).count()).toBe(1);
    const secret = page.getByRole('group', { name: 'Secret of paris-1' });
    expect(await secret.count()).toBe(0);
    await page.getByRole('button', { name: 'Show credentials of paris-1' }).click();
    await secret.waitFor();
    expect(await secret.textContent()).toContain(agent.secret);
    await page.getByRole('button', { name: 'Hide credentials of paris-1' }).click();
    await secret.waitFor({ state: 'detached' });
  });

  it('lists active, recent and all notifications, and resolves one', async () => {
    blog.respond(answer(503, 'blog down'));
    await serverSays(blogId, 'offline');
    await waitFor(
      async () =>
        (await count(`SELECT count(*) AS n FROM notifications WHERE monitor_id = $1 AND type = 'downtime' AND status = 'active'`, [
          blogId,
        ])) === 1,
      { what: "Blog's downtime notification" },
    );

    await nav('Notifications');
    const active = page.getByRole('region', { name: 'Active notifications', exact: true });
    const blogItem = active.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Blog', exact: true }) });
    await refreshed(blogItem);
    expect(await active.getByRole('link', { name: 'Shop', exact: true }).count()).toBe(0);
    await blogItem.getByRole('button', { name: 'Resolve' }).click();
    await notice('Notification resolved');
    await active.getByText('Nothing needs attention right now.').waitFor();

    const views = page.getByRole('group', { name: 'Which notifications' });
    await views.getByRole('button', { name: 'Recent', exact: true }).click();
    const recent = page.getByRole('region', { name: 'Recent notifications', exact: true });
    const shopItems = recent.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) });
    await shopItems.first().waitFor();
    expect(await shopItems.filter({ has: page.getByText('Recovery', { exact: true }) }).count()).toBe(1);
    expect(await shopItems.filter({ has: page.getByText('Downtime', { exact: true }) }).count()).toBe(1);
    expect(
      await recent
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: 'Blog', exact: true }) })
        .count(),
    ).toBe(1);
    await checkPage('notifications-recent');

    await views.getByRole('button', { name: 'All', exact: true }).click();
    const all = page.getByRole('region', { name: 'All notifications', exact: true });
    await page.getByRole('search', { name: 'Filter notifications' }).getByRole('combobox', { name: 'Type' }).selectOption('recovery');
    const recoveries = all.getByRole('listitem').filter({ has: page.getByText('Recovery', { exact: true }) });
    await waitFor(async () => (await all.getByRole('listitem').count()) === (await recoveries.count()), { what: 'only recoveries listed' });
    expect(
      await all
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) })
        .count(),
    ).toBe(1);
  });

  it('shows counts by status, average uptime, monitors down now with since, and recent notifications on the dashboard', async () => {
    await nav('Dashboard');
    await page.getByRole('link', { name: '1 offline', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: `${FILLERS + 1} online`, exact: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: '0 paused', exact: true }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Averages', exact: true }).textContent()).toMatch(
      new RegExp(`^Average uptime, 24 h${PERCENT}7 days${PERCENT}`),
    );
    const down = page.getByRole('region', { name: 'Down now', exact: true }).getByRole('listitem');
    expect(await down.count()).toBe(1);
    expect(await down.getByRole('link', { name: 'Blog', exact: true }).count()).toBe(1);
    expect(await down.textContent()).toMatch(/since .+ \(.+ ago\)/);
    await page
      .getByRole('region', { name: 'Recent notifications', exact: true })
      .getByRole('link', { name: 'Shop', exact: true })
      .first()
      .waitFor();
    await checkPage('dashboard-counts');

    await page.getByRole('link', { name: '1 offline', exact: true }).click();
    await heading().filter({ hasText: 'Monitors' }).waitFor();
    await page.getByText('1 in total', { exact: true }).waitFor();
    expect(await monitorList().getByRole('link').allTextContents()).toEqual(['Blog']);
  });

  it('sends an expired session to sign-in, then back to the page it was on', async () => {
    await page.goto(`${appUrl}/monitors/${shopId}`);
    await heading().filter({ hasText: 'Shop' }).waitFor();
    // The session ends on the server, as when it expires: the page's next refresh is refused.
    const sessions = await redis.keys(`${stack.config.redis.queuePrefix}:sess:*`);
    expect(sessions).toHaveLength(1);
    await redis.del(...sessions);
    await refreshed(page.getByText('Your session has ended. Sign in to continue where you were.'));
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(`/sign-in?next=%2Fmonitors%2F${shopId}`);
    await checkPage('session-ended');

    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await heading().filter({ hasText: 'Shop' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/monitors/${shopId}`);

    await page.goto(`${appUrl}/no-such-page`);
    await heading().filter({ hasText: 'Page not found' }).waitFor();
    await checkPage('not-found');
  });

  it('forgets every cached answer on signing out', async () => {
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await nav('Monitors');
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await heading().filter({ hasText: 'Shop' }).waitFor();
    await nav('Monitors');
    // A whole session of use has kept nothing in localStorage: the cookie is the only credential.
    expect(await page.evaluate('Object.keys(localStorage)')).toEqual([]);
    // Signing out refetches the page's queries and gets 401s; one answered only after the route
    // below is in place would send the app to sign-in from the monitor's page. So every API call
    // made until then has its answer before the test goes back.
    // By request: a refetch the live updates started just before (docs/web.md, "Live updates")
    // may end after the listeners are on. The stream itself is never answered whole.
    const apiCallsInFlight = new Set<Request>();
    const isApiCall = (request: Request): boolean => request.url().includes('/api/v1/') && !request.url().includes('/api/v1/live');
    const started = (request: Request): void => void (isApiCall(request) && apiCallsInFlight.add(request));
    const ended = (request: Request): void => void apiCallsInFlight.delete(request);
    page.on('request', started);
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await waitFor(() => apiCallsInFlight.size === 0, { what: 'the API calls of signing out to be answered' });
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);

    // Back to the monitor's page, with the API holding every answer: had the app kept its cache,
    // it would show the monitor from memory while it asks.
    const held: Route[] = [];
    let holding = true;
    await page.route('**/api/v1/**', (route) => void (holding ? held.push(route) : route.continue()));
    await page.goBack();
    await page.waitForURL(new RegExp(`/monitors/${shopId}$`));
    await page.getByText('Loading the monitor…').waitFor();
    expect(await page.getByRole('heading', { name: /Shop/ }).count()).toBe(0);
    expect(held.length).toBeGreaterThan(0);

    // The API answers them now: signed out, 401, and the app asks to sign in again.
    holding = false;
    for (const route of held) await route.continue();
    await page.waitForURL(new RegExp(`/sign-in\\?next=%2Fmonitors%2F${shopId}$`));
    await page.unroute('**/api/v1/**');

    await page.goto(`${appUrl}/sign-in?error=invalid_link`);
    await page.getByRole('alert').filter({ hasText: 'This sign-in link is invalid' }).waitFor();
    await checkPage('sign-in-invalid-link');
  });
});
