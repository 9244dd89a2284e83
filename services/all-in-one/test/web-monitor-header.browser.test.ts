import type { Page } from 'playwright-core';
import { answer, waitFor } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What a monitor's page showed at one moment: its header's claims and its "Recent checks". */
interface Sample {
  path: string;
  /** The `<h1>`: the name and the state word. */
  title: string;
  /** The "Uptime" figures, name → value ("Last check" → "2 s ago"). */
  figures: Record<string, string>;
  /** Rows of "Recent checks"; -1 while the section is not on the page. */
  rows: number;
  noChecksYet: boolean;
}

/**
 * Records what every monitor page shows after each change of its DOM (a MutationObserver, set up
 * before the app's own script on every load, so no render is missed): the header's `<h1>`, the
 * figures of the region named "Uptime", and the rows of the region headed "Recent checks".
 * A string, not a function: the page's CSP forbids `eval`, and a script added through the
 * DevTools protocol is not governed by it.
 */
const RECORDER = `(() => {
  const samples = [];
  window.__headerSamples = samples;
  let last = '';
  const record = () => {
    const recent = [...document.querySelectorAll('h2')].find((h) => h.textContent.trim() === 'Recent checks');
    const title = document.querySelector('h1');
    if (!recent || !title) return;
    const section = recent.closest('section');
    const uptime = document.querySelector('[aria-label="Uptime"]');
    const figures = {};
    for (const tile of uptime ? [...uptime.children] : []) figures[tile.children[0].textContent] = tile.children[1].textContent;
    const sample = {
      path: location.pathname,
      title: title.textContent,
      figures,
      rows: section.querySelectorAll('tbody tr').length,
      noChecksYet: section.textContent.includes('No checks yet.'),
    };
    const key = JSON.stringify(sample);
    if (key !== last) samples.push(sample);
    last = key;
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();`;

/**
 * "The header never claims a check that Recent checks does not show" (docs/web.md, "Pages"): a
 * brand-new monitor's page is watched at every change while its first checks arrive, live and
 * then polling; whenever the header says Online or Offline, a last check or an uptime, "Recent
 * checks" shows a check. Headless Chromium against the real api and check-worker.
 */
describe("the web app: a new monitor's header and its recent checks", () => {
  let app: BrowserApp;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    // The check-worker starts once the first monitor's page is open: its first check arrives while the page is watched.
    app = await startBrowserApp({
      person: { id: '9393', email: 'ada@example.com', name: 'Ada Lovelace' },
      target: answer(200, 'ok'),
      checkWorker: false,
    });
    ({ page, appUrl } = app);
    await page.addInitScript(RECORDER);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { signIn, nav, addMonitor, checkPage } = appDriver(() => page);

  const samples = async (path: string): Promise<Sample[]> =>
    ((await page.evaluate('window.__headerSamples')) as Sample[]).filter((s) => s.path === path);

  /** What the header claims of checks: a state other than Pending, a last check, or a figure ("—" is none, "…" one loading). */
  const claimsACheck = (s: Sample): boolean =>
    /Online|Offline|Down|Maintenance/.test(s.title) ||
    (s.figures['Last check'] ?? 'not yet') !== 'not yet' ||
    ['Uptime 24 h', 'Uptime 7 d', 'Uptime 30 d', 'Uptime 90 d', 'Last response'].some((f) => !['—', '…'].includes(s.figures[f] ?? '—'));

  /** Every moment of `path` recorded: a claim only beside a shown check; and the first check was seen arriving. */
  async function expectHeaderMatchedChecks(path: string): Promise<void> {
    const seen = await samples(path);
    const broken = seen.filter((s) => claimsACheck(s) && s.rows === 0);
    expect(broken).toEqual([]);
    // The page was watched before its first check ("No checks yet.") and after it.
    expect(seen.filter((s) => s.noChecksYet).length).toBeGreaterThan(0);
    expect(seen.filter((s) => s.rows > 0).length).toBeGreaterThan(0);
    // The header did move on: the last sample claims what its checks show.
    expect(claimsACheck(seen.at(-1)!)).toBe(true);
  }

  it('1. live: from Pending and "No checks yet" to Online with its checks, never one before the other', async () => {
    await signIn(appUrl);
    await page.getByText(/· live$/).waitFor();
    await addMonitor('Shop', `${app.target.url}/shop`);
    const path = new URL(page.url()).pathname;
    const recent = page.getByRole('region', { name: 'Recent checks' });
    await recent.getByText('No checks yet.').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Pending');
    await app.stack.startCheckWorker();
    await recent.getByRole('row').nth(3).waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Online' }).waitFor();
    await expectHeaderMatchedChecks(path);
    await checkPage('monitor-header-live');
  });

  it('2. polling, the stream refused: the same for a second new monitor', async () => {
    await page.route('**/api/v1/live*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }));
    app.stack.api.server.closeAllConnections();
    await page.getByRole('status').filter({ hasText: 'Live updates are interrupted' }).waitFor({ timeout: 10_000 });
    // Blog's checks are answered only once its page is open and watched (the worker is running now).
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ok = answer(200, 'ok');
    app.target.respond((req, res) => (req.url.startsWith('/blog') ? void held.then(() => ok(req, res)) : ok(req, res)));
    await nav('Dashboard');
    await addMonitor('Blog', `${app.target.url}/blog`);
    const path = new URL(page.url()).pathname;
    const recent = page.getByRole('region', { name: 'Recent checks' });
    await recent.getByText('No checks yet.').waitFor();
    release();
    // Polling every 2 s while pending, the page's clock at real speed: its checks come in by themselves.
    await recent.getByRole('row').nth(3).waitFor({ timeout: 30_000 });
    await waitFor(async () => /Online/.test((await page.getByRole('heading', { level: 1 }).textContent()) ?? ''), {
      what: 'Blog online on its page',
      timeoutMs: 20_000,
    });
    await expectHeaderMatchedChecks(path);
    await checkPage('monitor-header-polling');
    // Chromium logged the refused streams and the cut requests: those were the point.
    app.problems.splice(0, app.problems.length, ...app.problems.filter((p) => !/status of 503|ERR_|EventSource/.test(p)));
  });
});
