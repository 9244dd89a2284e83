import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { answer, waitFor, type FakeHttpServer } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../..');
const EMAIL = 'ada@example.com';
/** What the page fetches by itself (a refresh every 2 to 15 s) shows within this. */
const SEEN_WITHIN = 45_000;

/**
 * The web app as a person uses it (issue 18), in headless Chromium against the real api,
 * check-worker and notifier, Postgres and Redis, a fake GitHub and a fake SendGrid. Elements
 * are found by role and accessible name only. Every page is checked with axe-core and leaves a
 * screenshot in test-output/. A status change reaches the page through its own refresh: once
 * the server has it, the page's clock jumps a refresh period ahead instead of waiting it out.
 */
describe('the web app in a browser', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let target: FakeHttpServer;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '4242', email: EMAIL, name: 'Ada Lovelace' } });
    ({ stack, target, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  /** The monitor's status as the server has it: what the page's next refresh shows. */
  const serverSays = (name: string, status: string): Promise<void> => monitorOnServer(stack.ds, name, status);
  const { heading, nav, notice, checkPage, refreshed, expectClearOfTopBar } = appDriver(() => page);

  it('1. signs in through GitHub (only the configured provider is offered)', async () => {
    await page.goto(`${appUrl}/`);
    await page.waitForURL(/\/sign-in$/);
    const signIn = page.getByRole('button', { name: 'Sign in with GitHub' });
    await signIn.waitFor();
    expect(await page.getByRole('button', { name: 'Sign in with Google' }).count()).toBe(0);
    await checkPage('sign-in');

    await signIn.click();
    await heading().filter({ hasText: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    expect(await page.evaluate('Object.keys(localStorage)')).toEqual([]);
  });

  it('2. adds a monitor and watches it go online', async () => {
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await heading().filter({ hasText: 'Add monitor' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Checkout API');
    await page.getByLabel('URL', { exact: true }).fill(`${target.url}/health`);
    await page.getByLabel('Method').selectOption('GET');
    await page.getByLabel('Check interval').fill('1');
    await page.getByLabel('Timeout').fill('5');
    await page.getByLabel('Expected content').fill('good');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Monitor "Checkout API" added');
    await heading().filter({ hasText: 'Checkout API' }).waitFor();
    // Save is below the fold: the monitor's page opens at its top, its name not under the top bar.
    await expectClearOfTopBar(heading());
    // Pending: the page asks every 2 s.
    await heading().filter({ hasText: 'Online' }).waitFor({ timeout: SEEN_WITHIN });
    // The recent checks, read when the page opened (none yet), come with its next refresh.
    await refreshed(page.getByRole('table').getByRole('cell', { name: 'Up', exact: true }).first());
    await checkPage('monitor-detail');

    await nav('Monitors');
    const link = page.getByRole('link', { name: 'Checkout API', exact: true });
    await link.waitFor();
    expect(await page.getByRole('row').filter({ has: link }).getByText('Online', { exact: true }).count()).toBe(1);
    await checkPage('monitors');
  });

  it('3. sees the monitor offline and its notification when the target fails, and acknowledges it', async () => {
    target.respond(answer(500, 'boom'));
    await page.getByRole('link', { name: 'Checkout API', exact: true }).click();
    await heading().filter({ hasText: 'Checkout API' }).waitFor();
    await serverSays('Checkout API', 'offline');
    await refreshed(heading().filter({ hasText: 'Offline' }));
    await waitFor(() => stack.sendgrid.mails.some((m) => m.subject.startsWith('[DOWN]')), { what: 'downtime email', timeoutMs: 20_000 });

    await nav('Dashboard');
    await page.getByRole('region', { name: 'Down now' }).getByRole('link', { name: 'Checkout API' }).waitFor({ timeout: SEEN_WITHIN });
    await checkPage('dashboard');

    await nav('Notifications');
    const acknowledge = page.getByRole('button', { name: 'Acknowledge' });
    await acknowledge.first().waitFor({ timeout: SEEN_WITHIN });
    expect(await acknowledge.count()).toBe(1);
    await acknowledge.click();
    await notice('Notification acknowledged');
    await page.getByText('Acknowledged', { exact: true }).waitFor();
    expect(await acknowledge.count()).toBe(0);
    await checkPage('notifications');
  });

  it('4. sees it online again when the target recovers', async () => {
    target.respond(answer(200, 'all good'));
    await page.getByRole('region', { name: 'Active notifications' }).getByRole('link', { name: 'Checkout API' }).click();
    await heading().filter({ hasText: 'Checkout API' }).waitFor();
    await serverSays('Checkout API', 'online');
    await refreshed(heading().filter({ hasText: 'Online' }));
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await heading().filter({ hasText: 'Edit Checkout API' }).waitFor();
    expect(await page.getByLabel('Expected content').inputValue()).toBe('good');
    await page.getByLabel('Headers').fill('Accept: text/plain');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Monitor saved');
    // "Edit Checkout API" has the name in it too: the monitor's own page is there once it has gone.
    await heading().filter({ hasText: 'Edit Checkout API' }).waitFor({ state: 'detached' });
    await heading().filter({ hasText: 'Checkout API' }).waitFor();
    await expectClearOfTopBar(heading());
    await page.getByRole('button', { name: 'Test now' }).click();
    await page.getByRole('status').filter({ hasText: 'Test result' }).waitFor({ timeout: 15_000 });
  });

  it('shows a banner while the API cannot be reached, and when to retry after a 429', async () => {
    await nav('Monitors');
    const status = page.getByRole('combobox', { name: 'Status' });
    await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
    await status.selectOption('online');
    const banner = page.getByRole('alert').filter({ hasText: 'The API cannot be reached' });
    await banner.waitFor();
    await checkPage('unreachable');
    // The page keeps trying by itself on its timers: held still, so that the banner can only go
    // away through "Retry now" (it did go away by itself between the unroute and the click). The
    // live stream is held off until then too: the browser reconnects it on timers of its own, and
    // a stream that comes back reads every page afresh (src/app/live.ts).
    await page.clock.pauseAt(await page.evaluate(() => Date.now()));
    await page.route('**/api/v1/live**', (route) => route.abort('connectionrefused'));
    await page.unroute('**/api/v1/**');
    await banner.getByRole('button', { name: 'Retry now' }).click();
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await page.unroute('**/api/v1/live**');
    await page.clock.resume();
    await status.selectOption('');

    const limited = {
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded' },
      meta: { timestamp: new Date().toISOString(), request_id: 'test' },
    };
    await page.route('**/api/v1/monitors?*', (route) =>
      route.fulfill({ status: 429, headers: { 'Retry-After': '30', 'Content-Type': 'application/json' }, body: JSON.stringify(limited) }),
    );
    await status.selectOption('paused');
    await page
      .getByRole('alert')
      .filter({ hasText: /Too many requests\. Try again in 30 s \(at / })
      .waitFor();
    await page.unroute('**/api/v1/monitors?*');
    await status.selectOption('');
    await page.getByRole('link', { name: 'Checkout API', exact: true }).click();
    await heading().filter({ hasText: 'Checkout API' }).waitFor();
    // Chromium logs each refused or 429 request; those were the point of this test.
    app.problems.splice(0, app.problems.length, ...app.problems.filter((p) => !/net::ERR_CONNECTION_REFUSED|net::ERR_FAILED|status of 429/.test(p)));
  });

  it('pauses with a reason and resumes', async () => {
    await page.getByRole('textbox', { name: 'Pause reason (optional)' }).fill('deploying');
    await page.getByRole('button', { name: 'Pause' }).click();
    await notice('Monitor paused');
    await heading().filter({ hasText: 'Paused' }).waitFor();
    await page.getByText(/Paused .*: deploying/).waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await notice('Monitor resumed');
    // Resumed is pending again: the page asks every 2 s until its first check.
    await heading().filter({ hasText: 'Online' }).waitFor({ timeout: SEEN_WITHIN });
  });

  it('moves through the pages with the keyboard alone', async () => {
    await page.goto(`${appUrl}/`);
    await heading().filter({ hasText: 'Dashboard' }).waitFor();
    const focused = (): Promise<string> => page.evaluate('document.activeElement.id || document.activeElement.textContent');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    // Then the brand, Dashboard and Monitors in the navigation bar.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Monitors');
    await page.keyboard.press('Enter');
    await heading().filter({ hasText: 'Monitors' }).waitFor();
    // The new page's content has the focus: the next Tab is the first control on it.
    expect(await focused()).toBe('main');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Add monitor');
  });

  it('5. applies the dark theme at once, and keeps it', async () => {
    await nav('Settings');
    await page.getByRole('radio', { name: 'Dark' }).check();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    const background = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    expect(luminance(background)).toBeLessThan(0.1);
    await notice('Theme set to dark');
    await page.reload();
    await heading().filter({ hasText: 'Settings' }).waitFor();
    await waitFor(async () => (await page.evaluate('document.documentElement.dataset.theme')) === 'dark', {
      what: 'dark theme after reload',
    });
    await checkPage('settings-dark');

    // Every time shown follows the time zone preference.
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice('Preferences saved');
    await page.getByText(/Now: .*GMT\+9/).waitFor();
  });

  it('6. creates an API token, shown once, and revokes it', async () => {
    await page.getByLabel('Token name').fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('group', { name: 'New token deploy script' });
    await shown.waitFor();
    const value =
      (await shown
        .getByRole('code')
        .textContent()
        .catch(() => null)) ??
      (await shown.textContent()) ??
      '';
    expect(value).toMatch(/upt_/);
    const revoke = page.getByRole('button', { name: 'Revoke deploy script' });
    await revoke.click();
    await notice('Token "deploy script" revoked');
    await revoke.waitFor({ state: 'detached' });
  });

  it('7. shows the field error next to a timeout of 4, in words, before sending', async () => {
    await nav('Monitors');
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Too quick');
    await page.getByLabel('URL', { exact: true }).fill(`${target.url}/`);
    const timeout = page.getByLabel('Timeout');
    await timeout.fill('4');
    await page.getByRole('button', { name: 'Save' }).click();
    // (The page's CSP forbids eval, so conditions are polled from here, not with waitForFunction.)
    await waitFor(async () => (await timeout.getAttribute('aria-invalid')) === 'true', { what: 'Timeout marked invalid' });
    const describedBy = (await timeout.getAttribute('aria-describedby'))!.split(' ');
    const description = (await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
    // The form's own check, from the timeout's declaration (docs/web.md, "Forms").
    expect(description).toMatch(/At least 5 seconds/);
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('false');
    await checkPage('monitor-form-error');

    await timeout.fill('10');
    await page.getByRole('button', { name: 'Save' }).click();
    await heading().filter({ hasText: 'Too quick' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Too quick?' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await notice('Monitor deleted');
    await heading().filter({ hasText: 'Monitors' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('quick');
    await page.getByText('No monitor matches these filters.').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('checkout');
    await page.getByRole('link', { name: 'Checkout API', exact: true }).waitFor();

    await nav('Agents');
    await heading().filter({ hasText: 'Agents' }).waitFor();
    await page.getByLabel('Agent name').fill('frankfurt-1');
    await page.getByLabel('Location').fill('Frankfurt');
    await page.getByLabel('Agent URL').fill(`${target.url}/agent`);
    await page.getByRole('button', { name: 'Register agent' }).click();
    await notice('Agent "frankfurt-1" registered');
    expect(await page.getByRole('group', { name: 'Secret of frankfurt-1' }).textContent()).toMatch(/[A-Za-z0-9_-]{20,}/);
    await page.getByRole('button', { name: 'Publish frankfurt-1' }).click();
    await notice('frankfurt-1 is public');
    await page.getByRole('button', { name: 'Unpublish frankfurt-1' }).waitFor();
    await page.getByRole('combobox', { name: 'Status of frankfurt-1' }).selectOption('maintenance');
    await notice('frankfurt-1 is now maintenance');
    await page.getByRole('combobox', { name: 'Status of frankfurt-1' }).selectOption('active');
    await notice('frankfurt-1 is now active');
    await page.getByRole('button', { name: 'Validate frankfurt-1' }).click();
    // The fake target is no agent: the validation says so in words.
    await notice('frankfurt-1 did not answer');
    await checkPage('agents');
  });

  it('8. signs out, then back in with a one-time login link, returning to the page it came from', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await page.goto(`${appUrl}/settings`);
    await page.waitForURL(/\/sign-in\?next=%2Fsettings$/);

    const link = await loginLink(EMAIL, appUrl);
    expect(link).toMatch(new RegExp(`^${appUrl}/api/v1/auth/link/`));
    await page.goto(link);
    await heading().filter({ hasText: 'Settings' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings');

    await page.goto(link);
    await page.waitForURL(/\/sign-in\?error=invalid_link$/);
    await page.getByRole('alert').filter({ hasText: 'This sign-in link is invalid' }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await heading().filter({ hasText: 'Dashboard' }).waitFor();
  });
});

/** `pnpm cli login-link`, as a self-hoster runs it, against this run's database. */
async function loginLink(email: string, publicUrl: string): Promise<string> {
  const { stdout } = await promisify(execFile)('pnpm', ['--silent', 'cli', 'login-link', '--email', email], {
    cwd: ROOT,
    env: { ...process.env, PUBLIC_URL: publicUrl, LOG_LEVEL: 'silent' },
  });
  return stdout.trim();
}

/** Relative luminance (0 black, 1 white) of a CSS `rgb(r, g, b)`. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+/g) ?? ['255', '255', '255']).slice(0, 3).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.04045) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
