import type { Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver, screenshot, seriousAxeViolations } from './support/web-browser';

jest.setTimeout(180_000);

interface WindowRow {
  name: string;
  starts_at: Date;
  duration_minutes: number;
  repeat: string;
  weekdays: number[];
  timezone: string;
  monitors: number;
}

/** "2026-11-28T19:40": what a datetime-local field takes for `instant` as `timeZone` reads it. */
function wallTime(instant: Date, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/**
 * The Maintenance page (docs/web.md): windows listed, created once and recurring for chosen
 * monitors in a chosen time zone, edited and deleted; what the form can tell is said before
 * sending, all at once, and the API's refusals next to their field; the dashboard lists the
 * windows in progress and those coming. Headless Chromium against the real api, by role and
 * accessible name, axe-core on each state, at 1280 and 390 px wide.
 */
describe('the web app: the Maintenance page', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    // No check runs here: the page is about the windows, not the checks in them.
    app = await startBrowserApp({ person: { id: '6161', email: 'ada@example.com', name: 'Ada Lovelace' }, checkWorker: false });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, checkPage, signIn, addMonitor, notice } = appDriver(() => page);
  const form = (name: string) => page.getByRole('form', { name });
  const windows = () => page.getByRole('region', { name: 'Maintenance windows' });
  const row = (name: string) => windows().getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });

  const stored = async (name: string): Promise<WindowRow | undefined> =>
    (
      (await stack.ds.query(
        `SELECT w.name, w.starts_at, w.duration_minutes, w.repeat, w.weekdays, w.timezone,
                (SELECT count(*)::int FROM maintenance_window_monitors m WHERE m.window_id = w.id) AS monitors
           FROM maintenance_windows w WHERE w.name = $1`,
        [name],
      )) as WindowRow[]
    )[0];

  it('1. lists no window at first, from its navigation link', async () => {
    await signIn(appUrl);
    await addMonitor('Mail', `${app.target.url}/mail`);
    await nav('Dashboard');
    await addMonitor('Web', `${app.target.url}/web`);
    await nav('Maintenance');
    await windows().getByText('No maintenance windows yet.').waitFor();
    await checkPage('maintenance-empty');
  });

  it('2. says what the form can tell all at once, before sending, then creates a one-off window in Tokyo time', async () => {
    await page.getByRole('button', { name: 'New maintenance window' }).click();
    const create = form('New maintenance window');
    await create.getByLabel('Name').fill('Mail server move');
    await create.getByLabel('Starts').fill('');
    await create.getByLabel('Duration (minutes)').fill('an hour');
    await create.getByRole('button', { name: 'Create maintenance window' }).click();
    await create.getByText('Some fields need a change; see the messages next to them.').waitFor();
    await create.getByText('Choose a date and a time').waitFor();
    await create.getByText('A whole number of minutes, 1 to 10080').waitFor();
    await create.getByRole('group', { name: 'Monitors' }).getByText('Choose at least one monitor').waitFor();
    await checkPage('maintenance-form-errors');

    // Ten minutes ago in Tokyo, for an hour: in progress now. Still no monitor chosen: said again, alone.
    const start = new Date(Math.floor((Date.now() - 10 * 60_000) / 60_000) * 60_000);
    await create.getByLabel('Time zone').selectOption('Asia/Tokyo');
    await create.getByLabel('Starts').fill(wallTime(start, 'Asia/Tokyo'));
    await create.getByLabel('Duration (minutes)').fill('60');
    await create.getByRole('button', { name: 'Create maintenance window' }).click();
    const monitors = create.getByRole('group', { name: 'Monitors' });
    await monitors.getByText('Choose at least one monitor').waitFor();
    expect(await create.getByText('A whole number of minutes').count()).toBe(0);
    expect(await create.getByText('Choose a date and a time').count()).toBe(0);

    await monitors.getByRole('checkbox', { name: 'Mail' }).check();
    await create.getByRole('button', { name: 'Create maintenance window' }).click();
    await notice('Maintenance window "Mail server move" created');
    expect(await stored('Mail server move')).toEqual({
      name: 'Mail server move',
      starts_at: start,
      duration_minutes: 60,
      repeat: 'none',
      weekdays: [],
      timezone: 'Asia/Tokyo',
      monitors: 1,
    });
    const created = row('Mail server move');
    await created.getByText('Once').waitFor();
    await created.getByText(/^In progress until /).waitFor();
    expect(await created.getByRole('cell', { name: 'Asia/Tokyo' }).count()).toBe(1);
  });

  it('3. creates a weekly window on chosen days for two monitors, then makes it daily', async () => {
    await page.getByRole('button', { name: 'New maintenance window' }).click();
    const create = form('New maintenance window');
    await create.getByLabel('Name').fill('Nightly backup');
    await create.getByRole('group', { name: 'Monitors' }).getByRole('checkbox', { name: 'Mail' }).check();
    await create.getByRole('group', { name: 'Monitors' }).getByRole('checkbox', { name: 'Web' }).check();
    await create.getByLabel('Time zone').selectOption('Europe/Paris');
    await create.getByLabel('Starts').fill('2026-11-30T02:00');
    await create.getByLabel('Duration (minutes)').fill('30');
    await create.getByLabel('Repeat').selectOption({ label: 'Every week' });
    const days = create.getByRole('group', { name: 'Days' });
    await days.getByRole('checkbox', { name: 'Wednesday' }).check();
    await days.getByRole('checkbox', { name: 'Monday' }).check();
    await checkPage('maintenance-form-weekly');
    await create.getByRole('button', { name: 'Create maintenance window' }).click();
    await notice('Maintenance window "Nightly backup" created');
    // 02:00 in Paris in winter is 01:00 UTC.
    expect(await stored('Nightly backup')).toMatchObject({ starts_at: new Date('2026-11-30T01:00:00Z'), repeat: 'weekly', weekdays: [1, 3], monitors: 2 });
    await row('Nightly backup').getByText('Every week on Monday, Wednesday').waitFor();

    await windows().getByRole('button', { name: 'Edit Nightly backup' }).click();
    const edit = form('Edit Nightly backup');
    // The form reads the start in the window's own zone, not the user's.
    expect(await edit.getByLabel('Starts').inputValue()).toBe('2026-11-30T02:00');
    expect(await edit.getByLabel('Time zone').inputValue()).toBe('Europe/Paris');
    await edit.getByLabel('Repeat').selectOption({ label: 'Every day' });
    expect(await edit.getByRole('group', { name: 'Days' }).count()).toBe(0);
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await notice('Maintenance window "Nightly backup" saved');
    expect(await stored('Nightly backup')).toMatchObject({ repeat: 'daily', weekdays: [], starts_at: new Date('2026-11-30T01:00:00Z'), monitors: 2 });
    await row('Nightly backup').getByText('Every day', { exact: true }).waitFor();
    await checkPage('maintenance');
  });

  it('4. shows the window in progress and the one coming on the dashboard', async () => {
    await nav('Dashboard');
    const maintenance = page.getByRole('region', { name: 'Maintenance', exact: true });
    const ongoing = maintenance.getByRole('region', { name: 'In progress' });
    const upcoming = maintenance.getByRole('region', { name: 'Next 7 days' });
    await ongoing.getByText('Mail server move').waitFor();
    await ongoing.getByText(/^until .* · 1 monitor$/).waitFor();
    // Daily: its next night is always within the week.
    await upcoming.getByText('Nightly backup').waitFor();
    await upcoming.getByText(/ · 2 monitors$/).waitFor();
    expect(await ongoing.getByText('Nightly backup').count()).toBe(0);
    await checkPage('dashboard-maintenance-windows');
  });

  it('5. deletes a window after a confirmation', async () => {
    await nav('Maintenance');
    await windows().getByRole('button', { name: 'Delete Mail server move' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await notice('Maintenance window "Mail server move" deleted');
    await row('Mail server move').waitFor({ state: 'detached' });
    expect(await stored('Mail server move')).toBeUndefined();
    expect(await row('Nightly backup').count()).toBe(1);
  });

  it('6. fits a phone, its form open, without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'New maintenance window' }).click();
    await form('New maintenance window').getByRole('group', { name: 'Monitors' }).getByRole('checkbox', { name: 'Web' }).waitFor();
    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      await screenshot(page, `phone-maintenance-${colorScheme}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    const width = await page.evaluate<{ scroll: number; inner: number }>('({ scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth })');
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
  });
});
