import type { Page, Request } from 'playwright-core';
import { answer } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/**
 * Forms that help (docs/web.md, "Forms"): the monitor form checks every field before sending, all
 * at once, next to each field, in words; the API's refusal of a field it does not check itself is
 * put next to that field in the same words; an error notice stays, a success goes by itself. The
 * stack runs with the production interval floor of 30 s. Headless Chromium, by role and name.
 */
describe('the web app: form checks', () => {
  let app: BrowserApp;
  let page: Page;
  let appUrl: string;
  /** Monitor writes the page sent, since the last `writes.length = 0`. */
  const writes: string[] = [];

  beforeAll(async () => {
    app = await startBrowserApp({
      person: { id: '7575', email: 'ada@example.com', name: 'Ada Lovelace' },
      target: answer(200, 'ok'),
      env: { MIN_CHECK_INTERVAL_SECONDS: '30' },
    });
    ({ page, appUrl } = app);
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/v1/monitors') && r.method() !== 'GET') writes.push(`${r.method()} ${url.pathname}`);
    });
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { signIn, heading, notice, checkPage } = appDriver(() => page);

  /** The messages tied to a field by `aria-describedby`. */
  async function describedBy(label: string): Promise<string> {
    const input = page.getByLabel(label, { exact: true });
    const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    return (await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
  }

  it('1. shows an empty name, a bad URL and an interval of 1 all at once after one submit, sending nothing', async () => {
    await signIn(appUrl);
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    // The floor is said before anything is typed.
    expect(await describedBy('Check interval')).toContain('seconds between checks, 30 to 86400');
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByLabel('URL', { exact: true }).fill('example.com/shop');
    await page.getByLabel('Check interval').fill('1');
    writes.length = 0;
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Some fields need a change' }).waitFor();
    expect(await describedBy('Name')).toContain('Required: a name for the monitor');
    expect(await describedBy('URL')).toContain('Not a full address: write it as http:// or https://, with a host');
    expect(await describedBy('Check interval')).toContain('At least 30 seconds');
    for (const label of ['Name', 'URL', 'Check interval']) expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Timeout').getAttribute('aria-invalid')).toBe('false');
    await page.waitForTimeout(500);
    expect(writes).toEqual([]);
    await checkPage('form-checks');
  });

  it("2. puts the API's refusal of a field next to it, in the same words, and keeps the error notice", async () => {
    await page.getByLabel('Name', { exact: true }).fill('Shop');
    await page.getByLabel('URL', { exact: true }).fill(`${app.target.url}/shop`);
    await page.getByLabel('Check interval').fill('60');
    // "Slow after" is not checked in the browser: the API refuses 0 ("must not be less than 1").
    await page.getByLabel('Slow after').fill('0');
    writes.length = 0;
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Some fields need a change' }).waitFor();
    expect(writes).toEqual(['POST /api/v1/monitors']);
    expect(await describedBy('Slow after')).toContain('At least 1');
    expect(await describedBy('Slow after')).not.toContain('must not be');
    expect(await describedBy('Check interval')).not.toContain('At least');

    await page.getByLabel('Slow after').fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notice('Monitor "Shop" added');
    await heading().filter({ hasText: 'Shop' }).waitFor();
    // A success notice goes by itself.
    await page.clock.fastForward(6_000);
    await page.getByRole('status').filter({ hasText: 'Monitor "Shop" added' }).waitFor({ state: 'detached' });
    // An error notice stays until dismissed: a test check of a failing target says so.
    app.target.respond(answer(500, 'boom'));
    await page.getByRole('button', { name: 'Test now' }).click();
    const failed = page.getByRole('status').filter({ hasText: 'Test check: down' });
    await failed.waitFor();
    await page.clock.fastForward(60_000);
    await page.waitForTimeout(300);
    expect(await failed.count()).toBe(1);
    await failed.getByRole('button', { name: 'Dismiss' }).click();
    await failed.waitFor({ state: 'detached' });
  });
});
