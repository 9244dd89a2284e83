import type { Page } from 'playwright-core';
import { waitFor } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { queueDowntime } from './support/downtime';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

const ADA = { id: '7102', email: 'ada@example.com', name: 'Ada Lovelace' };
const LOGGED = 'logged (no mail transport)';

/**
 * Email channels with no mail transport configured, and channels marked "Default for new
 * monitors" (docs/channels.md, docs/web.md): an email that only went to the log is never shown
 * as sent, in a channel's test result nor on the notifications page, and a monitor added in the
 * web app afterwards starts with the default channel checked in its alert settings. Headless
 * Chromium against the real stack, by role and accessible name.
 */
describe('the web app: email channels without a mail transport, and default channels', () => {
  let app: BrowserApp;
  let page: Page;

  beforeAll(async () => {
    // No SendGrid and no SMTP: emails go to the log (docs/configuration.md).
    app = await startBrowserApp({ person: ADA, checkWorker: false, env: { SENDGRID_API_KEY: '' } });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
  });

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const ada = appDriver(() => page);

  /** Adds an email channel through its form on the Channels page. */
  async function addEmailChannel(name: string, recipients: string, isDefault: boolean): Promise<void> {
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('Type').selectOption({ label: 'Email' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Recipients').fill(recipients);
    const byDefault = form.getByRole('checkbox', { name: 'Default for new monitors' });
    if (isDefault) await byDefault.check();
    expect(await byDefault.isChecked()).toBe(isDefault);
    await form.getByRole('button', { name: 'Add channel' }).click();
    await ada.notice(`Channel "${name}" added`);
  }

  it('shows a test email of a channel as logged, not sent, and marks the default channel in the list', async () => {
    await ada.signIn(app.appUrl);
    await ada.nav('Channels');
    await page.getByText('No channels yet.').waitFor();
    await addEmailChannel('Team mail', 'team@example.com', true);
    await addEmailChannel('Archive mail', 'archive@example.com', false);
    await page.getByRole('row').filter({ hasText: 'Team mail' }).getByText('Default for new monitors').waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Archive mail' }).getByText('Default for new monitors').count()).toBe(0);

    await page.getByRole('button', { name: 'Test Team mail' }).click();
    const result = page.getByRole('region', { name: 'Test of Team mail' });
    await result.getByRole('cell', { name: LOGGED, exact: true }).waitFor();
    expect(await result.getByRole('cell', { name: 'team@example.com', exact: true }).count()).toBe(1);
    expect(await result.getByRole('cell', { name: 'Sent', exact: true }).count()).toBe(0);
    // Nor a time in its Sent column (the attempt's time is in Last attempt): Sent and Error are empty.
    expect(await result.getByRole('cell', { name: '—', exact: true }).count()).toBe(2);
    await ada.checkPage('channels-logged-email');
  });

  it('checks the default channel, and only it, on a monitor added afterwards, whose downtime emails show as logged on the notifications page', async () => {
    await ada.nav('Dashboard');
    await ada.addMonitor('Shop', `${app.target.url}/shop`);
    await ada.nav('Monitors');
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    const teamBox = page.getByRole('checkbox', { name: 'Team mail (Email)', exact: true });
    await teamBox.waitFor();
    expect(await teamBox.isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Archive mail (Email)', exact: true }).isChecked()).toBe(false);
    await ada.checkPage('monitor-default-channel');

    // The server attached it when the monitor was made: the page shows what is stored.
    const [monitor] = (await app.stack.ds.query(`SELECT id FROM monitors WHERE name = 'Shop'`)) as { id: number }[];
    const attached = (await app.stack.ds.query(
      `SELECT c.name FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id WHERE mc.monitor_id = $1 AND c.monitor_id IS NULL`,
      [monitor!.id],
    )) as { name: string }[];
    expect(attached.map((c) => c.name)).toEqual(['Team mail']);

    // A downtime: its emails, to the members (the monitor's own email channel) and through Team mail, only logged.
    await queueDowntime(app.stack.ds, app.stack.config, monitor!.id);
    await waitFor(
      async () => {
        const rows = (await app.stack.ds.query(
          `SELECT d.recipient, d.status, d.logged_only FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.monitor_id = $1 ORDER BY d.recipient`,
          [monitor!.id],
        )) as { recipient: string; status: string; logged_only: boolean }[];
        // Stored as sent to the log (`logged_only`); the API shows it as `logged` (docs/channels.md).
        const logged = { status: 'sent', logged_only: true };
        return JSON.stringify(rows) === JSON.stringify([{ recipient: 'ada@example.com', ...logged }, { recipient: 'team@example.com', ...logged }]);
      },
      { what: 'both downtime emails logged on the server' },
    );

    await ada.nav('Notifications');
    const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Shop', exact: true }) });
    await ada.refreshed(item.first());
    // The notification's summary says so too: its email was logged, not sent.
    await item.getByText(/email logged \(no mail transport\) \d/).waitFor();
    expect(await item.getByText('email sent', { exact: false }).count()).toBe(0);
    await item.getByRole('button', { name: 'Deliveries', exact: true }).click();
    const deliveries = page.getByRole('region', { name: 'Deliveries of the notification of Shop' });
    await deliveries.getByRole('cell', { name: LOGGED, exact: true }).first().waitFor();
    expect(await deliveries.getByRole('cell', { name: LOGGED, exact: true }).count()).toBe(2);
    expect(await deliveries.getByRole('cell', { name: 'Sent', exact: true }).count()).toBe(0);
    expect(await deliveries.getByRole('cell', { name: '—', exact: true }).count()).toBe(4);
    await ada.checkPage('notifications-logged-email');
  });
});
