import type { Page } from 'playwright-core';
import { startFakeDiscord, type FakeService } from '@uptime/testing';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

jest.setTimeout(180_000);

const ADA = { id: '7101', email: 'ada@example.com', name: 'Ada Lovelace' };

/**
 * The Channels page (docs/channels.md, docs/web.md): a channel added through its type's form with
 * each field's hint, tested with the delivery shown, applied to every monitor, picked on a
 * monitor's alert settings, edited and deleted. Headless Chromium against the real stack and a
 * fake Discord, by role and accessible name.
 */
describe('the web app: channels', () => {
  let app: BrowserApp;
  let page: Page;
  let discord: FakeService<unknown>;

  beforeAll(async () => {
    discord = await startFakeDiscord();
    app = await startBrowserApp({ person: ADA, checkWorker: false });
    ({ page } = app);
  });

  afterAll(async () => {
    await app?.close();
    await discord?.close();
  });

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const ada = appDriver(() => page);

  it('adds a Discord channel, tests it, applies it to all monitors, picks it on a monitor, edits and deletes it', async () => {
    await ada.signIn(app.appUrl);
    await ada.addMonitor('Shop', `${app.target.url}/shop`);

    await ada.nav('Channels');
    await page.getByText('No channels yet.').waitFor();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByLabel('Type').selectOption({ label: 'Discord' });
    // The form says what each field is and where to find it.
    await form.getByText('Channel settings → Integrations → Webhooks').waitFor();
    await form.getByLabel('Name').fill('Ops Discord');
    await form.getByLabel('Webhook URL').fill(discord.url);
    await form.getByRole('checkbox', { name: 'Default for new monitors' }).check();
    await ada.checkPage('channel-form');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await ada.notice('Channel "Ops Discord" added');
    const row = page.getByRole('row').filter({ hasText: 'Ops Discord' });
    await row.getByText('Default for new monitors').waitFor();

    await page.getByRole('button', { name: 'Test Ops Discord' }).click();
    const result = page.getByRole('region', { name: 'Test of Ops Discord' });
    await result.getByRole('cell', { name: 'Sent', exact: true }).waitFor();
    expect(JSON.stringify(discord.received)).toContain('[TEST] Ops Discord');
    await ada.checkPage('channels');

    await page.getByRole('button', { name: 'Apply to all monitors: Ops Discord' }).click();
    await ada.notice('attached to 1 more monitors');

    // The monitor's alert settings show the channel, checked; unchecking it and saving detaches it.
    await ada.nav('Monitors');
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    const box = page.getByRole('checkbox', { name: 'Ops Discord (Discord)', exact: true });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByRole('button', { name: 'Save alert settings' }).click();
    await ada.notice('Alert settings saved');
    // The monitor's own email channel (docs/channels.md) stays attached; no account channel does.
    const attached: unknown[] = await app.stack.ds.query(`SELECT 1 FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id WHERE c.monitor_id IS NULL`);
    expect(attached).toEqual([]);

    await ada.nav('Channels');
    await page.getByRole('button', { name: 'Edit Ops Discord' }).click();
    const edit = page.getByRole('form', { name: 'Edit Ops Discord' });
    // The URL is a secret: never shown again, kept when left empty.
    expect(await edit.getByLabel('Webhook URL').inputValue()).toBe('');
    await edit.getByLabel('Name').fill('Team Discord');
    await edit.getByRole('button', { name: 'Save' }).click();
    await ada.notice('Channel "Team Discord" saved');
    await page.getByRole('button', { name: 'Test Team Discord' }).click();
    await page.getByRole('region', { name: 'Test of Team Discord' }).getByRole('cell', { name: 'Sent', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Delete Team Discord' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await ada.notice('Channel deleted; detached from 0 monitors');
    await page.getByText('No channels yet.').waitFor();
  });
});
