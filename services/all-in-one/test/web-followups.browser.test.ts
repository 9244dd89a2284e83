import type { Locator, Page } from 'playwright-core';
import { createRedisConnection, publishCheckStats, withdrawCheckStats } from '@uptime/queues';
import { answer, startFakeSlack, startFakeWebhookReceiver, waitFor, type FakeHttpServer, type FakeSlack, type FakeWebhookReceiver } from '@uptime/testing';
import { monitorOnServer, startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

/** What the page fetches by itself (a refresh every 2 to 15 s) shows within this. */
const SEEN_WITHIN = 45_000;
/** GET /api/v1/notifications/{id}, not the lists beside it. */
const ONE_NOTIFICATION = /\/api\/v1\/notifications\/\d+$/;

interface DashboardChecks {
  late: boolean;
  lag_p99_seconds: number | null;
}

/**
 * What the web app shows of status pages, badges, alert channels, deliveries and check lateness
 * (docs/web.md), in headless Chromium against the real api, notifier and (from the second step)
 * check-worker. Elements are found by role and accessible name; every page is checked with
 * axe-core and leaves a screenshot in test-output/. A change reaches the page through its own
 * refresh: once the server has it, the page's clock jumps a refresh period ahead instead of
 * waiting it out.
 */
describe('the web app: status pages, badges, alert channels, deliveries, lateness', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let slack: FakeSlack;
  let hook: FakeWebhookReceiver;
  let target: FakeHttpServer;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    [slack, hook] = await Promise.all([startFakeSlack(), startFakeWebhookReceiver()]);
    // No check-worker yet: the first step starts it.
    app = await startBrowserApp({ person: { id: '5151', email: 'grace@example.com', name: 'Grace Hopper' }, checkWorker: false });
    ({ stack, target, page, appUrl } = app);
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([slack?.close(), hook?.close()]);
  });

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  /** The dashboard's figures as the signed-in person's next refresh reads them (the page's own session). */
  const dashboardChecks = async (): Promise<DashboardChecks> => {
    const res = await page.request.get(`${appUrl}/api/v1/dashboard`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { data: { checks: DashboardChecks } }).data.checks;
  };
  const { heading, nav, notice, checkPage, refreshed, signIn, addMonitor } = appDriver(() => page);
  /** A monitor added from the dashboard. */
  const addMonitorFromDashboard = async (name: string, url: string): Promise<void> => {
    await nav('Dashboard');
    await addMonitor(name, url);
  };
  const webhookRowSent = (table: Locator): Promise<void> =>
    table
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Webhook', exact: true }) })
      .getByText('Sent', { exact: true })
      .waitFor({ timeout: SEEN_WITHIN });
  const secretOf = async (group: string): Promise<string> =>
    ((await page.getByRole('group', { name: group }).locator('code').textContent()) ?? '').trim();

  it('1. says no check-worker is running while monitors wait, and stops saying it once one runs', async () => {
    await signIn(appUrl);
    await addMonitorFromDashboard('Shop', `${target.url}/shop`);
    await addMonitorFromDashboard('Blog', `${target.url}/blog`);

    await nav('Dashboard');
    const late = page.getByRole('alert').filter({ hasText: 'No check-worker is running' });
    await late.waitFor({ timeout: SEEN_WITHIN });
    await checkPage('dashboard-late');

    // Its figures are published every 200 ms instead of 5 s: the server knows of it at once.
    await stack.startCheckWorker({ checkStatsPublishMs: 200 });
    await refreshed(late, 'detached');
    // Whether this worker's own checks run late depends on how fast the machine ran the steps above
    // (late is a lag p99 over a tenth of the 1 s interval). So a second worker that is behind
    // publishes its figures as a starved one does; the fleet is late when any fresh worker is, with
    // the worst p99 (packages/queues/src/check-stats.ts).
    const redis = createRedisConnection(stack.config.redis.url, 'lagging-worker');
    try {
      await publishCheckStats(redis, stack.config.redis.queuePrefix, 'lagging-worker', { perSecond: 2, lagP99Seconds: 12, late: true, at: Date.now() });
      const measured = await waitFor(
        async () => {
          const checks = await dashboardChecks();
          return checks.lag_p99_seconds === 12 ? checks : null;
        },
        { what: "the dashboard to know the lagging worker's figures", intervalMs: 100 },
      );
      expect(measured.late).toBe(true);
      // On a loaded machine the real worker may be late itself (say 2.3 s) and the page may show
      // that until its next poll: wait for the alert that names the worst p99, 12 s.
      const lag = page.getByRole('alert').filter({ hasText: /^Checks are running 12 s late: add a check-worker\./ });
      await refreshed(lag);
      expect(await late.count()).toBe(0);
      expect(await lag.textContent()).toMatch(/^Checks are running 12 s late: add a check-worker\./);
    } finally {
      await withdrawCheckStats(redis, stack.config.redis.queuePrefix, 'lagging-worker');
      redis.disconnect();
    }
  });

  it('2. creates a status page with monitors in a chosen order, refuses a taken slug on its field, edits and deletes it', async () => {
    await nav('Status pages');
    await heading().filter({ hasText: 'Status pages' }).waitFor();
    await page.getByText('No status pages yet.').waitFor();

    // Nothing filled: every problem next to its field, found before sending.
    await page.getByRole('button', { name: 'New status page' }).click();
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByRole('button', { name: 'Create status page' }).click();
    await form.getByRole('alert').filter({ hasText: 'Some fields need a change' }).waitFor();
    expect(await page.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Slug').fill('grace-services');
    await page.getByLabel('Title').fill('Grace services');
    await page.getByLabel('Description').fill('What our customers use');
    await form.getByRole('checkbox', { name: 'Shop' }).check();
    await form.getByRole('checkbox', { name: 'Blog' }).check();
    await form.getByRole('button', { name: 'Move Blog up' }).click();
    expect(await form.getByRole('list', { name: 'Order on the page' }).getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Blog'),
      expect.stringContaining('Shop'),
    ]);
    await checkPage('status-page-form');
    await form.getByRole('button', { name: 'Create status page' }).click();
    await notice('Status page "Grace services" created');

    const link = page.getByRole('link', { name: '/status/grace-services', exact: true });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${appUrl}/status/grace-services`);
    const row = page.getByRole('row').filter({ has: link });
    expect(await row.getByRole('cell', { name: 'Published', exact: true }).count()).toBe(1);
    const published = await fetch(`${appUrl}/api/v1/public/status-pages/grace-services`);
    expect(published.status).toBe(200);
    const body = (await published.json()) as { data: { monitors: { name: string }[] } };
    expect(body.data.monitors.map((m) => m.name)).toEqual(['Blog', 'Shop']);
    await checkPage('status-pages');

    // A taken slug: 409 RESOURCE_EXISTS, shown on the slug field.
    await page.getByRole('button', { name: 'New status page' }).click();
    await page.getByLabel('Slug').fill('grace-services');
    await page.getByLabel('Title').fill('Again');
    await form.getByRole('checkbox', { name: 'Shop' }).check();
    await form.getByRole('button', { name: 'Create status page' }).click();
    await form.getByRole('alert').waitFor();
    expect(await page.getByLabel('Slug').getAttribute('aria-invalid')).toBe('true');
    // The message is the field's accessible description (aria-describedby).
    const describedBy = ((await page.getByLabel('Slug').getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    const slugDescription = (await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
    expect(slugDescription).toMatch(/taken|exists|already/i);
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Edit: a draft is not public.
    await page.getByRole('button', { name: 'Edit Grace services' }).click();
    const edit = page.getByRole('form', { name: 'Edit Grace services' });
    expect(await page.getByLabel('Slug').inputValue()).toBe('grace-services');
    await edit.getByRole('checkbox', { name: 'Published' }).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await notice('Status page "Grace services" saved');
    await row.getByRole('cell', { name: 'Draft', exact: true }).waitFor();
    expect((await fetch(`${appUrl}/api/v1/public/status-pages/grace-services`)).status).toBe(404);

    await page.getByRole('button', { name: 'Delete Grace services' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the status page "Grace services"?' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await notice('Status page "Grace services" deleted');
    await page.getByText('No status pages yet.').waitFor();
  });

  it('3. creates a badge (its URLs shown once, with Markdown), and revokes it; "Revoke" only while there is one', async () => {
    await nav('Monitors');
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await heading().filter({ hasText: 'Shop' }).waitFor();
    const badge = page.getByRole('region', { name: 'Badge' });
    await badge.getByText('This monitor has no badge.').waitFor();
    expect(await badge.getByRole('button', { name: 'Revoke badge' }).count()).toBe(0);
    await badge.getByRole('button', { name: 'Create badge' }).click();
    await notice('Badge created');
    await badge.getByText(/^This monitor has a badge, made /).waitFor();
    expect(await badge.getByRole('button', { name: 'Replace badge' }).count()).toBe(1);
    const statusUrl = await secretOf('Status badge URL');
    expect(statusUrl).toMatch(new RegExp(`^${appUrl}/badge/[\\w-]{43}/status\\.svg$`));
    expect(await secretOf('Markdown for a README')).toContain(`![status](${statusUrl})`);
    expect(await badge.getByRole('button', { name: 'Copy Markdown for a README' }).count()).toBe(1);
    const svg = await fetch(statusUrl);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    await checkPage('monitor-badge');

    await badge.getByRole('button', { name: 'Revoke badge' }).click();
    await page.getByRole('dialog', { name: 'Revoke the badge?' }).getByRole('button', { name: 'Confirm' }).click();
    await notice('Badge revoked');
    expect((await fetch(statusUrl)).status).toBe(404);
    expect(await page.getByRole('group', { name: 'Status badge URL' }).count()).toBe(0);
    await badge.getByText('This monitor has no badge.').waitFor();
    expect(await badge.getByRole('button', { name: 'Revoke badge' }).count()).toBe(0);
    // Read again from the server: still none.
    await page.reload();
    await badge.getByText('This monitor has no badge.').waitFor();
    expect(await badge.getByRole('button', { name: 'Revoke badge' }).count()).toBe(0);
  });

  it('4. sets Slack and a signed webhook, shows the secret once, and shows each test delivery', async () => {
    const alerts = page.getByRole('region', { name: 'Alert settings' });
    await alerts.getByRole('checkbox', { name: 'Send to Slack' }).check();
    await alerts.getByLabel('Slack webhook URL').fill(slack.webhookUrl);
    await alerts.getByRole('checkbox', { name: 'Send to a webhook' }).check();
    await alerts.getByLabel('Webhook URL', { exact: true }).fill(hook.url);
    await alerts.getByRole('button', { name: 'Save alert settings' }).click();
    await notice('copy the webhook signing secret now');
    hook.secret = await secretOf('Webhook signing secret');
    expect(hook.secret.length).toBeGreaterThan(20);

    await alerts.getByRole('button', { name: 'Send test alert' }).click();
    const deliveries = alerts.getByRole('table', { name: 'Test alert deliveries' });
    await deliveries.waitFor({ timeout: 30_000 });
    for (const channel of ['Slack', 'Webhook']) {
      const row = deliveries.getByRole('row').filter({ has: page.getByRole('cell', { name: channel, exact: true }) });
      expect(await row.getByText('Sent', { exact: true }).count()).toBe(1);
    }
    expect(slack.messages).toHaveLength(1);
    expect(hook.received.length).toBeGreaterThanOrEqual(1);
    await checkPage('monitor-alert-test');

    // Afterwards the secret is never shown again: only that one is set, and it can be rotated.
    await page.reload();
    await alerts.getByText('Signing secret set.').waitFor();
    expect(await page.getByRole('group', { name: 'Webhook signing secret' }).count()).toBe(0);
    await alerts.getByRole('button', { name: 'Rotate webhook secret' }).click();
    await notice('New webhook signing secret');
    const rotated = await secretOf('Webhook signing secret');
    expect(rotated).not.toBe(hook.secret);
    hook.secret = rotated;

    // Reminders and escalation (docs/alert-rules.md): recipients without "Escalate after" are refused next to it.
    await alerts.getByLabel('Reminder interval (minutes)').fill('15');
    await alerts.getByLabel('Escalation recipients').fill('lead@example.com');
    await alerts.getByRole('button', { name: 'Save alert settings' }).click();
    await alerts.getByText('escalation_after_minutes is required when escalation_recipients or escalation_channel_ids is not empty').waitFor();
    await alerts.getByLabel('Escalate after (minutes)').fill('30');
    await alerts.getByRole('button', { name: 'Save alert settings' }).click();
    const saved = () => stack.ds.query('SELECT reminder_interval_minutes, escalation_recipients, escalation_after_minutes FROM monitors WHERE escalation_after_minutes IS NOT NULL');
    await waitFor(async () => (await saved()).length > 0, { what: 'escalation settings saved', timeoutMs: 10_000 });
    expect(await saved()).toEqual([{ reminder_interval_minutes: 15, escalation_recipients: ['lead@example.com'], escalation_after_minutes: 30 }]);

    // The escalation's channels: one checkbox per channel of the organization, apart from the monitor's channels.
    const [monitor] = (await stack.ds.query('SELECT id, organization_id FROM monitors WHERE escalation_after_minutes IS NOT NULL')) as { id: number; organization_id: number }[];
    const [oncall] = (await stack.ds.query(
      `INSERT INTO channels (organization_id, name, type, config) VALUES ($1, 'Oncall', 'email', '{"recipients": ["oncall@example.com"]}') RETURNING id`,
      [monitor!.organization_id],
    )) as { id: number }[];
    await page.reload();
    const escalateTo = alerts.getByRole('checkbox', { name: 'Escalate to Oncall (Email)' });
    await escalateTo.check();
    expect(await alerts.getByRole('group', { name: 'Channels' }).getByRole('checkbox', { name: 'Oncall (Email)', exact: true }).isChecked()).toBe(false);
    await alerts.getByRole('button', { name: 'Save alert settings' }).click();
    const escalationChannels = () => stack.ds.query('SELECT channel_id FROM monitor_escalation_channels WHERE monitor_id = $1', [monitor!.id]);
    await waitFor(async () => (await escalationChannels()).length > 0, { what: 'escalation channels saved', timeoutMs: 10_000 });
    expect(await escalationChannels()).toEqual([{ channel_id: oncall!.id }]);
    expect(await stack.ds.query('SELECT channel_id FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id WHERE mc.monitor_id = $1 AND c.monitor_id IS NULL', [monitor!.id])).toEqual([]);
    await checkPage('monitor-alert-escalation');
  });

  it('5. shows each check\'s timings in the recent checks, and the time nobody checked', async () => {
    // The monitor waited unchecked until the check-worker started (step 1): that time is not uptime.
    const figures = page.getByRole('region', { name: 'Response time' });
    expect(await figures.getByText('Not checked', { exact: true }).count()).toBe(1);
    const results = page.getByRole('region', { name: 'Recent checks' });
    await results.getByRole('columnheader', { name: 'Timings' }).waitFor({ timeout: SEEN_WITHIN });
    await results.getByRole('cell').filter({ hasText: /connect \d+ ms.*total \d+ ms/ }).first().waitFor({ timeout: SEEN_WITHIN });
  });

  it('6. lists a notification\'s deliveries, with a possible duplicate marked', async () => {
    target.respond(answer(500, 'boom'));
    await monitorOnServer(stack.ds, 'Shop', 'offline');
    await refreshed(heading().filter({ hasText: 'Offline' }));
    await waitFor(() => slack.messages.length >= 2, { what: 'downtime Slack message', timeoutMs: 30_000 });
    // Sent before the page reads the deliveries, so it reads them all sent.
    await waitFor(() => hook.received.some((w) => w.event === 'downtime'), { what: 'downtime webhook', timeoutMs: 30_000 });

    // The notifier marks a delivery whose send may have reached the provider twice; a lost answer
    // cannot be staged here, so the one answer read by the page is marked on its way in.
    await page.route(ONE_NOTIFICATION, async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { data: { deliveries: { channel: string; possible_duplicate: boolean }[] } };
      for (const d of json.data.deliveries) if (d.channel === 'slack') d.possible_duplicate = true;
      // Not the fetched headers: the body is re-encoded, so its compression and length no longer apply.
      await route.fulfill({ status: response.status(), json });
    });
    await nav('Notifications');
    // Blog shares the failing target, so its notification is listed too: take Shop's.
    const shop = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) });
    const toggle = shop.getByRole('button', { name: 'Deliveries' }).first();
    await toggle.waitFor({ timeout: SEEN_WITHIN });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const table = page.getByRole('table', { name: 'Deliveries of the notification of Shop' });
    await table.waitFor();
    const slackRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Slack', exact: true }) });
    await slackRow.getByText('Possible duplicate', { exact: true }).waitFor();
    // Signed with the rotated secret, which the receiver now checks against.
    await webhookRowSent(table);
    const webhookRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Webhook', exact: true }) });
    expect(await webhookRow.getByText('Possible duplicate').count()).toBe(0);
    await checkPage('notification-deliveries');
    await page.unroute(ONE_NOTIFICATION);
  });
});
