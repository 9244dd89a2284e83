import type { Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

const GRACE = { id: '7301', email: 'grace@example.com', name: 'Grace Hopper' };

/**
 * The Status pages screen's incident composer and subscriber list (docs/status-pages.md,
 * docs/web.md): an incident opened with its impact, affected monitors, first status and a
 * Markdown message previewed safely, an update that resolves it, a deletion after a
 * confirmation; a page's subscribers counted, listed and one removed after a confirmation.
 * Headless Chromium against the real api, Postgres and Redis, by role and accessible name,
 * axe-core on each state.
 */
describe("the web app: a status page's incidents and subscribers", () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  let pageId: number;

  beforeAll(async () => {
    app = await startBrowserApp({ person: GRACE, checkWorker: false });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, notice, checkPage, signIn, addMonitor } = appDriver(() => page);
  const incidentsPanel = () => page.getByRole('region', { name: 'Incidents of Grace', exact: true });
  const subscribersPanel = () => page.getByRole('region', { name: 'Subscribers of Grace', exact: true });

  async function post(path: string, body: unknown): Promise<{ id: number }> {
    const res = await page.request.post(`${appUrl}${path}`, { data: body, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: { id: number } }).data;
  }
  async function monitorId(name: string): Promise<number> {
    return ((await stack.ds.query('SELECT id FROM monitors WHERE name = $1', [name])) as { id: number }[])[0]!.id;
  }
  async function stored(): Promise<{ title: string; impact: string; status: string; monitors: number[]; updates: string[] }[]> {
    return (await stack.ds.query(
      `SELECT i.title, i.impact, i.status,
              (SELECT coalesce(array_agg(m.monitor_id ORDER BY m.monitor_id), '{}') FROM status_page_incident_monitors m WHERE m.incident_id = i.id) AS monitors,
              (SELECT array_agg(u.status ORDER BY u.id) FROM status_page_incident_updates u WHERE u.incident_id = i.id) AS updates
         FROM status_page_incidents i WHERE i.status_page_id = $1 ORDER BY i.id`,
      [pageId],
    )) as { title: string; impact: string; status: string; monitors: number[]; updates: string[] }[];
  }

  it('1. opens an incident on a page with impact, affected monitors, first status and a previewed message', async () => {
    await signIn(appUrl);
    await addMonitor('Shop', `${app.target.url}/shop`);
    await nav('Dashboard');
    await addMonitor('Mail', `${app.target.url}/mail`);
    pageId = (
      await post('/api/v1/status-pages', { slug: 'grace', title: 'Grace', monitor_ids: [await monitorId('Shop'), await monitorId('Mail')] })
    ).id;

    await nav('Status pages');
    await page.getByRole('button', { name: 'Incidents of Grace', exact: true }).click();
    await incidentsPanel().getByText('No incidents on this page.').waitFor();
    await incidentsPanel().getByRole('button', { name: 'New incident' }).click();
    const form = page.getByRole('form', { name: 'New incident' });
    await form.getByLabel('Title').fill('Checkout errors');
    await form.getByLabel('Impact').selectOption({ label: 'Major' });
    // Only the page's monitors are offered.
    expect(await form.getByRole('group', { name: 'Affected monitors' }).getByRole('checkbox').count()).toBe(2);
    await form.getByRole('checkbox', { name: 'Shop' }).check();
    await form.getByLabel('Status').selectOption({ label: 'Identified' });
    await form
      .getByRole('textbox', { name: 'Message', exact: true })
      .fill(
        'A failed **deploy**; see [the runbook](https://example.com/runbook).\n\n- rolling back\n- `v2` out\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1))',
      );

    // The preview shows the subset as elements and the rest as text: no image, no script link.
    const preview = form.getByRole('region', { name: 'Message preview' });
    await preview.getByText('deploy', { exact: true }).waitFor();
    expect(await preview.locator('strong').textContent()).toBe('deploy');
    const link = preview.getByRole('link', { name: 'the runbook' });
    expect(await link.getAttribute('href')).toBe('https://example.com/runbook');
    expect(await link.getAttribute('rel')).toContain('nofollow');
    expect(await preview.getByRole('listitem').allTextContents()).toEqual(['rolling back', 'v2 out']);
    expect(await preview.locator('img').count()).toBe(0);
    expect(await preview.getByRole('link').count()).toBe(1);
    await preview.getByText('<img src=x onerror=alert(1)> [bad](javascript:alert(1))').waitFor();
    await checkPage('status-page-incident-composer');
    await page.screenshot({ path: '/tmp/sections-incident-composer.png', fullPage: true });

    await form.getByRole('button', { name: 'Publish incident' }).click();
    await notice('Incident "Checkout errors" published');
    const incident = incidentsPanel().getByRole('article', { name: 'Checkout errors' });
    await incident.waitFor();
    await incident.getByText(/^Identified · Major impact · started .+ · Shop$/).waitFor();
    expect(await stored()).toEqual([
      { title: 'Checkout errors', impact: 'major', status: 'identified', monitors: [await monitorId('Shop')], updates: ['identified'] },
    ]);
    // The public page shows it too: the composer wrote to the page visitors read.
    const publicPage = await fetch(`${appUrl}/api/v1/public/status-pages/grace`);
    expect(JSON.stringify(await publicPage.json())).toContain('Checkout errors');
  });

  it('2. refuses an empty update by its field, then resolves the incident with an update', async () => {
    await incidentsPanel().getByRole('button', { name: 'Add update to Checkout errors' }).click();
    const form = page.getByRole('form', { name: 'Update on Checkout errors' });
    await form.getByLabel('Status').selectOption({ label: 'Resolved' });
    await form.getByRole('button', { name: 'Publish update' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByRole('textbox', { name: 'Message', exact: true }).getAttribute('aria-invalid')).toBe('true');

    await form.getByRole('textbox', { name: 'Message', exact: true }).fill('Fixed: the *old* version is back.');
    await form.getByRole('region', { name: 'Message preview' }).locator('em').filter({ hasText: 'old' }).waitFor();
    await form.getByRole('button', { name: 'Publish update' }).click();
    await notice('Update on "Checkout errors" published');
    const timeline = incidentsPanel().getByRole('list', { name: 'Updates of Checkout errors' });
    // The timeline's own items, newest first (a message's list has items of its own).
    const updates = timeline.locator(':scope > li');
    await updates.filter({ hasText: 'Fixed: the old version is back.' }).waitFor();
    const texts = await updates.allTextContents();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^Resolved.*Fixed: the old version is back\.$/s);
    expect(texts[1]).toMatch(/^Identified/);
    expect((await stored())[0]).toMatchObject({ status: 'resolved', updates: ['identified', 'resolved'] });
    await checkPage('status-page-incidents');
  });

  it('3. deletes the incident after a confirmation', async () => {
    await incidentsPanel().getByRole('button', { name: 'Delete Checkout errors' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the incident "Checkout errors"?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await stored()).toHaveLength(1);
    await incidentsPanel().getByRole('button', { name: 'Delete Checkout errors' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await notice('Incident "Checkout errors" deleted');
    await incidentsPanel().getByText('No incidents on this page.').waitFor();
    expect(await stored()).toEqual([]);
    await incidentsPanel().getByRole('button', { name: 'Close incidents' }).click();
    expect(await incidentsPanel().count()).toBe(0);
  });

  it('4. counts, lists and removes subscribers after a confirmation', async () => {
    await stack.ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, unsubscribe_token, confirmed_at)
       VALUES ($1, 'ada@example.com', 'confirmed', 'tok-ada-0000000000000000', now()),
              ($1, 'alan@example.com', 'confirmed', 'tok-alan-000000000000000', now()),
              ($1, 'edsger@example.com', 'pending', 'tok-edsger-0000000000000', NULL)`,
      [pageId],
    );
    await page.getByRole('button', { name: 'Subscribers of Grace', exact: true }).click();
    await subscribersPanel().getByText('3 subscribers, 2 confirmed', { exact: true }).waitFor();
    const rows = subscribersPanel().getByRole('row');
    expect(await rows.count()).toBe(4);
    const edsger = rows.filter({ has: page.getByRole('cell', { name: 'edsger@example.com', exact: true }) });
    expect(await edsger.getByRole('cell', { name: 'Awaiting confirmation', exact: true }).count()).toBe(1);
    await checkPage('status-page-subscribers');
    await page.screenshot({ path: '/tmp/sections-subscribers.png', fullPage: true });

    await subscribersPanel().getByRole('button', { name: 'Remove ada@example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the subscriber ada@example.com?' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await notice('Subscriber ada@example.com removed');
    await subscribersPanel().getByText('2 subscribers, 1 confirmed', { exact: true }).waitFor();
    expect(await subscribersPanel().getByRole('cell', { name: 'ada@example.com', exact: true }).count()).toBe(0);
    const left = (await stack.ds.query('SELECT email FROM status_page_subscribers WHERE status_page_id = $1 ORDER BY email', [pageId])) as {
      email: string;
    }[];
    expect(left.map((r) => r.email)).toEqual(['alan@example.com', 'edsger@example.com']);
  });

  it('5. marks a draft as such and publishes it with its "Publish" button (docs/status-pages.md, "Draft incidents")', async () => {
    // A draft as a page with auto_incidents opens one, here made through the API.
    const draft = await post(`/api/v1/status-pages/${pageId}/incidents`, {
      title: 'Shop is down',
      impact: 'major',
      message: 'Looking into it.',
      published: false,
    });
    const publicIncidents = async (): Promise<string> =>
      JSON.stringify(await (await fetch(`${appUrl}/api/v1/public/status-pages/grace`)).json());
    expect(await publicIncidents()).not.toContain('Shop is down');

    await page.getByRole('button', { name: 'Incidents of Grace', exact: true }).click();
    const article = incidentsPanel().getByRole('article', { name: 'Shop is down' });
    await article.getByText(/^Draft: not shown to visitors/).waitFor();
    await checkPage('status-page-incident-draft');
    await page.screenshot({ path: '/tmp/status-page-incident-draft.png', fullPage: true });

    await article.getByRole('button', { name: 'Publish Shop is down', exact: true }).click();
    await notice('Incident "Shop is down" published');
    await article.getByRole('button', { name: 'Publish Shop is down', exact: true }).waitFor({ state: 'detached' });
    expect(await article.getByText(/^Draft:/).count()).toBe(0);
    const [row] = (await stack.ds.query('SELECT published FROM status_page_incidents WHERE id = $1', [draft.id])) as {
      published: boolean;
    }[];
    expect(row?.published).toBe(true);
    expect(await publicIncidents()).toContain('Shop is down');
  });
});
