import type { Locator, Page, Request } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(240_000);

/**
 * Forms that help, beyond the monitor form (docs/web.md, "Forms"): the channel, maintenance
 * window, status page, incident, API token, agent, invitation and preferences forms each check every field before sending, all
 * at once after one submit, next to each field (its accessible description, `aria-invalid`), in
 * words, with nothing sent; the API's refusals of what only it can tell are put next to their
 * field in the same way. Headless Chromium, by role and accessible name.
 */
describe('the web app: every form checks before sending', () => {
  let app: BrowserApp;
  let page: Page;
  let appUrl: string;
  /** The API writes the page sent, since the last `writes.length = 0`. */
  const writes: string[] = [];

  beforeAll(async () => {
    app = await startBrowserApp({ person: { id: '8181', email: 'grace@example.com', name: 'Grace Hopper' } });
    ({ page, appUrl } = app);
    page.on('request', (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/v1/') && r.method() !== 'GET' && !url.pathname.endsWith('/incidents/preview'))
        writes.push(`${r.method()} ${url.pathname}`);
    });
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { signIn, nav, notice, checkPage, addMonitor } = appDriver(() => page);

  /** What `control` is described by (`aria-describedby`): its hint and its messages, where it has them. */
  async function description(control: Locator): Promise<string> {
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    // A field names its message's id before it has one (FormFields.tsx): none is read as empty.
    const texts = ids.map(async (id) => {
      const element = page.locator(`[id="${id}"]`);
      return (await element.count()) > 0 ? await element.textContent() : '';
    });
    return (await Promise.all(texts)).join(' ');
  }

  /** `control` is marked invalid and described by `message`. */
  async function expectProblem(control: Locator, message: string): Promise<void> {
    expect(await description(control)).toContain(message);
    expect(await control.getAttribute('aria-invalid')).toBe('true');
  }

  /**
   * Submits `form` with `button` and waits for its summary (in `form`, or in `around` where it
   * stands above the form): all its problems are shown then, and nothing was sent.
   */
  async function submitRefused(form: Locator, button: string, around: Locator = form): Promise<Locator> {
    writes.length = 0;
    await form.getByRole('button', { name: button, exact: true }).click();
    const summary = around.getByRole('alert').filter({ hasText: 'Some fields need a change; see the messages next to them.' });
    await summary.waitFor();
    // The summary takes the focus, so a screen reader reads it and the form scrolls to it.
    expect(await summary.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(writes).toEqual([]);
    return summary;
  }

  it("1. the channel form: an empty name and a Telegram bot token and chat id named at once; the API's refusal of a Pushover retry next to it", async () => {
    await signIn(appUrl);
    await addMonitor('Shop', `${app.target.url}/shop`);
    await nav('Dashboard');
    await addMonitor('Blog', `${app.target.url}/blog`);
    await nav('Channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('Type').selectOption({ label: 'Telegram' });
    await form.getByLabel('Bot token').fill('12345');
    await submitRefused(form, 'Add channel');
    await expectProblem(form.getByLabel('Name', { exact: true }), 'Required: a name for the channel');
    await expectProblem(
      form.getByLabel('Bot token'),
      'Write it as a Bot API token: digits, a colon, then 30 to 60 letters, digits, "_" or "-"',
    );
    await expectProblem(form.getByLabel('Chat ID'), 'Required: the chat ID');
    await checkPage('more-form-checks-channel');

    // What only the API tells: an emergency retry longer than its expiry.
    await form.getByLabel('Type').selectOption({ label: 'Pushover' });
    await form.getByLabel('Name', { exact: true }).fill('Pager');
    await form.getByLabel('Application token').fill('a'.repeat(30));
    await form.getByLabel('User key').fill('u'.repeat(30));
    await form.getByLabel('Priority').fill('2');
    await form.getByLabel('Retry (emergency)').fill('600');
    await form.getByLabel('Expire (emergency)').fill('300');
    // The form's own checks pass: the name's message is gone, the body is sent, the API refuses.
    writes.length = 0;
    await form.getByRole('button', { name: 'Add channel', exact: true }).click();
    await form.getByRole('alert').filter({ hasText: 'Some fields need a change' }).waitFor();
    expect(writes).toEqual(['POST /api/v1/channels']);
    await expectProblem(form.getByLabel('Retry (emergency)'), 'Must not be greater than expire: an emergency message would never repeat');
    expect(await form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    await form.getByLabel('Retry (emergency)').fill('60');
    await form.getByRole('button', { name: 'Add channel', exact: true }).click();
    await notice('Channel "Pager" added');
  });

  it('2. the maintenance window form: no name, no monitor and a duration of 0 named at once; a monitor deleted meanwhile refused by the API next to Monitors', async () => {
    await nav('Maintenance');
    await page.getByRole('button', { name: 'New maintenance window' }).click();
    const form = page.getByRole('form', { name: 'New maintenance window' });
    await form.getByLabel('Duration (minutes)').fill('0');
    await submitRefused(form, 'Create maintenance window');
    await expectProblem(form.getByLabel('Name', { exact: true }), 'Required: a name for the window');
    await expectProblem(form.getByLabel('Duration (minutes)'), 'At least 1 minute');
    const monitors = form.getByRole('group', { name: 'Monitors' });
    expect(await description(monitors)).toContain('Choose at least one monitor');
    await checkPage('more-form-checks-maintenance');

    await form.getByLabel('Name', { exact: true }).fill('Blog move');
    await form.getByLabel('Duration (minutes)').fill('10081');
    await monitors.getByRole('checkbox', { name: 'Blog' }).check();
    await submitRefused(form, 'Create maintenance window');
    await expectProblem(form.getByLabel('Duration (minutes)'), 'At most 10080 minutes');
    expect(await description(monitors)).not.toContain('Choose');

    // Blog is deleted in another tab while this form is open: only the API can tell.
    const other = await page.context().newPage();
    await other.goto(`${appUrl}/monitors`);
    await other.getByRole('link', { name: 'Blog', exact: true }).click();
    await other.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    await other.getByRole('button', { name: 'Delete', exact: true }).click();
    await other.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await other.getByRole('heading', { level: 1, name: 'Monitors' }).waitFor();
    await other.close();

    await form.getByLabel('Duration (minutes)').fill('60');
    writes.length = 0;
    await form.getByRole('button', { name: 'Create maintenance window', exact: true }).click();
    await form.getByRole('alert').filter({ hasText: 'Some fields need a change' }).waitFor();
    expect(writes).toEqual(['POST /api/v1/maintenance-windows']);
    expect(await description(monitors)).toMatch(/^Must hold only your own monitors; not found: \d+$/);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('3. the status page form: slug, title, monitors and sections named at once; then an incident and an update without words', async () => {
    await nav('Status pages');
    await page.getByRole('button', { name: 'New status page' }).click();
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByLabel('Slug').fill('Grace Status');
    await form.getByRole('button', { name: 'Add section', exact: true }).click();
    await submitRefused(form, 'Create status page');
    await expectProblem(form.getByLabel('Slug'), 'Write it as 3 to 64 of a–z, 0–9 and -');
    await expectProblem(form.getByLabel('Title'), 'Required: a title for the page');
    expect(await description(form.getByRole('group', { name: 'Monitors on the page' }))).toContain('Choose at least one monitor');
    expect(await description(form.getByRole('group', { name: 'Sections', exact: true }))).toContain('Section 1 needs a name');
    await checkPage('more-form-checks-status-page');

    await form.getByLabel('Slug').fill('grace');
    await form.getByLabel('Title').fill('Grace');
    await form.getByRole('checkbox', { name: 'Shop' }).check();
    await form.getByRole('button', { name: 'Remove section Section 1', exact: true }).click();
    await form.getByRole('button', { name: 'Create status page', exact: true }).click();
    await notice('Status page "Grace" created');

    await page.getByRole('button', { name: 'Incidents of Grace' }).click();
    await page.getByRole('button', { name: 'New incident' }).click();
    const incident = page.getByRole('form', { name: 'New incident' });
    await submitRefused(incident, 'Publish incident');
    await expectProblem(incident.getByLabel('Title'), 'Required: a title for the incident');
    await expectProblem(incident.getByRole('textbox', { name: 'Message', exact: true }), 'Required: what visitors should know');
    await checkPage('more-form-checks-incident');
    await incident.getByLabel('Title').fill('Slow checkout');
    await incident.getByRole('textbox', { name: 'Message', exact: true }).fill('We are looking into it.');
    await incident.getByRole('button', { name: 'Publish incident', exact: true }).click();
    await notice('Incident "Slow checkout" published');

    await page.getByRole('button', { name: 'Add update to Slow checkout' }).click();
    const update = page.getByRole('form', { name: 'Update on Slow checkout' });
    await submitRefused(update, 'Publish update');
    await expectProblem(update.getByRole('textbox', { name: 'Message', exact: true }), 'Required: what visitors should know');
  });

  it('4. the API token form: no name and 0 days named at once', async () => {
    await nav('Settings');
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Expires in days').fill('0');
    // The token form's summary stands above it, in its card.
    const summary = await submitRefused(form, 'Create token', page.getByRole('region', { name: 'API tokens' }));
    await expectProblem(form.getByLabel('Token name'), 'Required: a name for the token');
    await expectProblem(form.getByLabel('Expires in days'), 'At least 1 day');
    await checkPage('more-form-checks-token');
    await form.getByLabel('Token name').fill('deploy');
    await form.getByLabel('Expires in days').fill('30');
    await form.getByRole('button', { name: 'Create token', exact: true }).click();
    await notice('Token "deploy" created');
    expect(await summary.count()).toBe(0);
  });

  it('5. the agent form: no name, no location and an address without its scheme named at once', async () => {
    await nav('Agents');
    const card = page.getByRole('region', { name: 'Register an agent' });
    await card.getByLabel('Agent URL').fill('agent.example.com');
    await submitRefused(card, 'Register agent');
    await expectProblem(card.getByLabel('Agent name'), 'Required: a name for the agent');
    await expectProblem(card.getByLabel('Location'), 'Required: where the agent runs');
    await expectProblem(card.getByLabel('Agent URL'), 'Write it as http:// or https:// and a host, with no query, fragment or user');
    await checkPage('more-form-checks-agent');
  });

  it('6. the invitation form: an address that is not one named before sending', async () => {
    await nav('Members');
    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('Email').fill('grace at example.com');
    await submitRefused(form, 'Invite', page.getByRole('region', { name: 'Invite someone' }));
    await expectProblem(form.getByLabel('Email'), 'Not an email address: write it as name@example.com');
    await checkPage('more-form-checks-invite');
  });

  it('7. the preferences: a default interval of 0 and a timeout of 301 named at once, their bounds said beside them', async () => {
    await nav('Settings');
    const form = page.getByRole('form', { name: 'Preferences' });
    expect(await description(form.getByLabel('Default check interval'))).toContain('seconds between checks of a new monitor, 1 to 86400');
    await form.getByLabel('Default check interval').fill('0');
    await form.getByLabel('Default timeout').fill('301');
    await submitRefused(form, 'Save', page.getByRole('region', { name: 'Preferences' }));
    await expectProblem(form.getByLabel('Default check interval'), 'At least 1 second');
    await expectProblem(form.getByLabel('Default timeout'), 'At most 300 seconds');
    await checkPage('more-form-checks-preferences');
  });
});
