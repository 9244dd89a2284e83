import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startApiHarness, type ApiHarness } from './support/api-harness';

jest.setTimeout(90_000);

/** Debian's chromium (.ci/run installs it); a browser is never downloaded. */
const CHROMIUM = '/usr/bin/chromium';
/** A built app in miniature, with an inline script and an inline style the CSP must refuse. */
const FIXTURE = path.join(__dirname, 'fixtures/web-csp');

/**
 * The web app's CSP in a real browser: the app's own module script, stylesheet, data: image and
 * same-origin fetch work on a client-side route, and what is inline is refused.
 */
describe('the web app in a browser, under its CSP', () => {
  let h: ApiHarness;
  let server: Server;
  let baseUrl: string;
  let profile: string;
  let browser: BrowserContext;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
    h = await startApiHarness({ WEB_DIST_DIR: FIXTURE, GITHUB_CLIENT_ID: 'gh-client', GITHUB_CLIENT_SECRET: 'gh-secret' });
    server = await new Promise<Server>((resolve) => {
      const s = h.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    profile = mkdtempSync(path.join(tmpdir(), 'uptime-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-background-networking', '--headless=new', '--disable-gpu', '--no-first-run', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await h?.close();
  });

  const attr = (page: Page, selector: string, name: string) => page.locator(selector).getAttribute(name);
  /** Evaluated in the page (this test is compiled without the DOM's types). */
  const colorOf = (page: Page, id: string) => page.evaluate<string>(`getComputedStyle(document.getElementById('${id}')).color`);

  it("runs the app's own files on a client-side route and refuses inline code", async () => {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));

    const res = await page.goto(`${baseUrl}/monitors/42`);
    expect(res?.status()).toBe(200);
    await page.waitForFunction(`document.getElementById('root').dataset.providers !== undefined`);

    expect(await attr(page, '#root', 'data-script')).toBe('ran');
    expect(await attr(page, '#root', 'data-path')).toBe('/monitors/42');
    expect(await attr(page, '#root', 'data-providers')).toBe('["github"]');
    expect(await colorOf(page, 'styled')).toBe('rgb(0, 128, 0)');
    expect(await page.evaluate<number>(`document.getElementById('inlined').naturalWidth`)).toBe(1);
    expect(failed).toEqual([]);

    // Inline: refused, and reported as the only violations.
    expect(await page.evaluate<string | null>(`document.body.dataset.inline ?? null`)).toBeNull();
    expect(await colorOf(page, 'inline-style')).not.toBe('rgb(255, 0, 0)');
    expect(violations).toHaveLength(2);
    expect(violations.some((v) => v.includes("script-src 'self'"))).toBe(true);
    expect(violations.some((v) => v.includes("style-src 'self'"))).toBe(true);
  });
});
