import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { freePort } from '@uptime/testing';

const ROOT = path.resolve(__dirname, '../../../..');
export const OUTPUT_DIR = path.join(ROOT, 'test-output');
/** Debian's chromium; a browser is never downloaded (scripts/ensure-system-packages.sh). */
export const CHROMIUM = '/usr/bin/chromium';

/** Builds services/web when dist/ is missing or older than its sources: the start script's own rule. */
export function ensureWebBuilt(): void {
  execFileSync('bash', ['scripts/build-web.sh'], { cwd: ROOT, stdio: 'ignore', timeout: 180_000 });
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: bash scripts/ensure-system-packages.sh installs it`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * The longest of the app's own refresh periods (services/web: a monitor's page and the
 * notifications every 15 s, the dashboard every 10 s): one jump of the page's clock by this
 * much fires whichever refresh the page on screen has.
 */
export const PAGE_REFRESH_MS = 15_000;

/**
 * The env that serves the app at an address known before it starts: PUBLIC_URL and APP_URL
 * (sign-in redirects, login links, badge URLs) name it.
 */
export async function appAddress(): Promise<{ appUrl: string; env: Record<string, string> }> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  return { appUrl, env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: appUrl, APP_URL: appUrl } };
}

/**
 * A page in a context of its own whose clock the test controls: it runs at real speed until
 * `appDriver().refreshed` jumps it ahead. Installed before the app loads, so the app's timers
 * (its refreshes, the notices' lifetimes) are all on it.
 */
export async function openAppPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  await context.clock.install();
  return context.newPage();
}

/** Everything the page logged as an error, CSP violations included: a test expects none. */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // A 4xx the app handles (the field error of a refused form) is logged by Chromium as a failed resource.
    if (msg.type() === 'error' && !/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()))
      problems.push(`console: ${msg.text()}`);
  });
  return problems;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A and AA). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not govern.
  if (!(await page.evaluate(`'axe' in window`))) await page.evaluate(AXE_SOURCE);
  // A string: the root TypeScript program has no DOM types.
  const violations = await page.evaluate<AxeViolation[]>(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  // From the top: a full-page shot of a scrolled page paints the sticky bar mid-page.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(OUTPUT_DIR, `web-${name}.png`), fullPage: true });
}

/** How the browser tests move through the app: by role and accessible name only. */
export function appDriver(currentPage: () => Page) {
  const heading = (): Locator => currentPage().getByRole('heading', { level: 1 });
  const notice = (text: string): Promise<void> =>
    currentPage().getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
  return {
    heading,
    /** From the app's root through the fake GitHub's sign-in, to the dashboard. */
    async signIn(appUrl: string): Promise<void> {
      await currentPage().goto(`${appUrl}/`);
      await currentPage().getByRole('button', { name: 'Sign in with GitHub' }).click();
      await heading().filter({ hasText: 'Dashboard' }).waitFor();
    },
    /**
     * From the dashboard's "Add monitor": a monitor of `url` checked every second, with `fields`
     * (label to value) filled too; waits for its page.
     */
    async addMonitor(name: string, url: string, fields: Record<string, string> = {}): Promise<void> {
      await currentPage().getByRole('button', { name: 'Add monitor' }).click();
      await heading().filter({ hasText: 'Add monitor' }).waitFor();
      await currentPage().getByLabel('Name', { exact: true }).fill(name);
      await currentPage().getByLabel('URL', { exact: true }).fill(url);
      await currentPage().getByLabel('Check interval').fill('1');
      await currentPage().getByLabel('Timeout').fill('5');
      for (const [label, value] of Object.entries(fields)) await currentPage().getByLabel(label).fill(value);
      await currentPage().getByRole('button', { name: 'Save', exact: true }).click();
      await notice(`Monitor "${name}" added`);
      await heading().filter({ hasText: name }).waitFor();
    },
    /**
     * Follows a main-menu link and waits for that page's heading: until it shows, the page before
     * is still on screen, and a locator could match that page's copy of a button.
     */
    async nav(name: string): Promise<void> {
      await currentPage().getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
      await currentPage().getByRole('heading', { level: 1, name, exact: true }).waitFor();
    },
    /**
     * `locator` in the state the page's own refresh brings it to, without waiting that refresh
     * out: call it once the server has the change. The page's clock jumps a refresh period ahead,
     * as if the person had left the page open that long, which fires the refresh; one that was
     * already under way when the change landed answers the old state, so up to three jumps.
     */
    async refreshed(locator: Locator, state: 'visible' | 'detached' = 'visible'): Promise<void> {
      let missed: unknown;
      for (const timeout of [3_000, 3_000, 10_000]) {
        await currentPage().clock.fastForward(PAGE_REFRESH_MS);
        try {
          await locator.waitFor({ state, timeout });
          return;
        } catch (err) {
          missed = err;
        }
      }
      throw missed;
    },
    /** A notice in the live region saying `text`. */
    notice,
    /** `locator` is in the window and below the sticky top bar, not hidden under it. */
    async expectClearOfTopBar(locator: Locator): Promise<void> {
      const [box, bar] = await Promise.all([locator.boundingBox(), currentPage().getByRole('banner').boundingBox()]);
      expect(box).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height);
      expect(box!.y + box!.height).toBeLessThanOrEqual(currentPage().viewportSize()!.height);
    },
    /** No serious or critical axe-core violation, and test-output/web-<name>.png. */
    async checkPage(name: string): Promise<void> {
      expect(await seriousAxeViolations(currentPage())).toEqual([]);
      await screenshot(currentPage(), name);
    },
  };
}
