import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver, OUTPUT_DIR } from './support/web-browser';

jest.setTimeout(180_000);

const ADA = { id: '7311', email: 'ada@example.com', name: 'Ada Lovelace' };

interface PublicPage {
  monitors: { name: string; section: string | null }[];
  sections: { name: string | null; monitor_count: number }[];
}

/**
 * The status page form's section editor and its live preview (docs/status-pages.md, "Sections";
 * docs/web.md): sections added, named, reordered and removed from the keyboard, each monitor's
 * section chosen, the preview beside the form showing the page grouped as visitors will see it,
 * and the saved page's public JSON grouped the same way. Headless Chromium against the real api,
 * Postgres and Redis, by role and accessible name, axe-core on each state.
 */
describe("the web app: a status page's sections", () => {
  let app: BrowserApp;
  let page: Page;
  let appUrl: string;

  beforeAll(async () => {
    app = await startBrowserApp({ person: ADA, checkWorker: false });
    ({ page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const { nav, notice, checkPage, signIn, addMonitor } = appDriver(() => page);
  const preview = (): Locator => page.getByRole('region', { name: 'Preview', exact: true });
  /** The preview's groups as text: each section's heading among the monitors, then its monitors' names. */
  async function previewed(): Promise<string[][]> {
    const headings = await preview().getByRole('region', { name: 'Monitors', exact: true }).getByRole('heading', { level: 4 }).allTextContents();
    const loose = preview().getByRole('list', { name: 'Monitors in no section', exact: true });
    const names = async (list: Locator): Promise<string[]> => list.locator(':scope > li > span:first-child').allTextContents();
    const groups: string[][] = (await loose.count()) > 0 ? [['(none)', ...(await names(loose))]] : [];
    for (const h of headings) groups.push([h, ...(await names(preview().getByRole('list', { name: `Monitors in ${h}`, exact: true })))]);
    return groups;
  }
  async function readPublic(slug: string): Promise<PublicPage> {
    const res = await fetch(`${appUrl}/api/v1/public/status-pages/${slug}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: PublicPage }).data;
  }
  /**
   * Shop's last days as daily rollups (the check-worker is off: no check would make them): 3 days
   * ago all up, 2 days ago 96 % (partial), yesterday 50 % (down), as the public page grades them.
   */
  const DAY_MS = 86_400_000;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  /** A UTC day as both pages name it, written out here rather than taken from the code under test. */
  const dayName = (daysAgo: number): string => {
    const d = new Date(today - daysAgo * DAY_MS);
    return `${d.getUTCDate()} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]!} ${d.getUTCFullYear()}`;
  };
  const SHOP_DAYS = [
    { daysAgo: 3, checks: 288, successes: 288, label: '100.00% uptime', grade: 'up' },
    { daysAgo: 2, checks: 100, successes: 96, label: '96.00% uptime', grade: 'partial' },
    { daysAgo: 1, checks: 100, successes: 50, label: '50.00% uptime', grade: 'down' },
  ];
  async function recordShopDays(): Promise<void> {
    const [shop] = (await app.stack.ds.query(`SELECT id FROM monitors WHERE name = 'Shop'`)) as { id: number }[];
    for (const d of SHOP_DAYS) {
      await app.stack.ds.query(
        `INSERT INTO check_rollups_1d (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist) VALUES ($1, $2, $3, $4, $3, $3 * 120, 80, 300, '{}')`,
        [shop!.id, new Date(today - d.daysAgo * DAY_MS), d.checks, d.successes],
      );
    }
  }
  /** A monitor's 90 bars in `scope`, each as its accessible name and its grade. */
  async function bars(scope: Locator, name: string): Promise<{ label: string; grade: string }[]> {
    const group = scope.getByRole('group', { name: `${name}, uptime of the last 90 days`, exact: true });
    const shown: { label: string; grade: string }[] = [];
    // Attribute by attribute (no script of ours in the page): the public page is read with JavaScript off.
    for (const day of await group.getByRole('img').all()) {
      const classes = ((await day.getAttribute('class')) ?? '').split(' ');
      const grade = classes.map((c) => c.replace(/^day-/, '')).find((c) => ['up', 'partial', 'down', 'none'].includes(c)) ?? '(none given)';
      shown.push({ label: (await day.getAttribute('aria-label')) ?? '', grade });
    }
    return shown;
  }
  /** What the bars of Shop must show: the three recorded days graded, every other day without checks. */
  function expectShopBars(shown: { label: string; grade: string }[]): void {
    expect(shown).toHaveLength(90);
    const recorded = SHOP_DAYS.map((d) => ({ label: `${dayName(d.daysAgo)}: ${d.label}`, grade: d.grade }));
    expect(shown.slice(86, 89)).toEqual(recorded);
    expect(shown[0]).toEqual({ label: `${dayName(89)}: no checks`, grade: 'none' });
    expect(shown[89]).toEqual({ label: `${dayName(0)}: no checks`, grade: 'none' });
    expect(shown.filter((d) => d.grade !== 'none')).toHaveLength(3);
  }
  /** Waits until `control` has the keyboard's focus. */
  async function focused(control: Locator): Promise<void> {
    await control.and(page.locator(':focus')).waitFor();
  }
  /** Presses Enter on the control, as a keyboard user does once it has the focus. */
  async function press(control: Locator): Promise<void> {
    await control.focus();
    await page.keyboard.press('Enter');
  }

  it('1. builds sections from the keyboard, with the preview beside the form grouping the page as visitors will see it', async () => {
    await signIn(appUrl);
    for (const name of ['Shop', 'Blog', 'Mail', 'Docs']) {
      await addMonitor(name, `${app.target.url}/${name.toLowerCase()}`);
      await nav('Dashboard');
    }
    await recordShopDays();
    await nav('Status pages');
    await page.getByRole('button', { name: 'New status page' }).click();
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByLabel('Slug').fill('ada');
    await form.getByLabel('Title').fill('Ada services');
    for (const name of ['Shop', 'Blog', 'Mail', 'Docs']) await form.getByRole('checkbox', { name, exact: true }).check();
    await preview().getByRole('heading', { name: 'Ada services', level: 3 }).waitFor();
    expect(await previewed()).toEqual([['(none)', 'Shop', 'Blog', 'Mail', 'Docs']]);
    // Each monitor's last 90 days, as the public page will draw them.
    await preview().getByRole('group', { name: 'Shop, uptime of the last 90 days', exact: true }).waitFor();
    expectShopBars(await bars(preview(), 'Shop'));
    await preview().getByRole('group', { name: 'Blog, uptime of the last 90 days', exact: true }).waitFor();
    expect(new Set((await bars(preview(), 'Blog')).map((d) => d.grade))).toEqual(new Set(['none']));

    // "Add section" from the keyboard takes the focus to the new section's name.
    await press(form.getByRole('button', { name: 'Add section', exact: true }));
    await focused(form.getByLabel('Name of section 1'));
    await page.keyboard.type('Front end');
    expect(await form.getByLabel('Name of section 1').inputValue()).toBe('Front end');
    await press(form.getByRole('button', { name: 'Add section', exact: true }));
    await focused(form.getByLabel('Name of section 2'));
    await page.keyboard.type('Back end');
    expect(await form.getByLabel('Name of section 2').inputValue()).toBe('Back end');

    await form.getByLabel('Section of Shop').selectOption({ label: 'Front end' });
    await form.getByLabel('Section of Blog').selectOption({ label: 'Back end' });
    await form.getByLabel('Section of Mail').selectOption({ label: 'Back end' });
    expect(await form.getByRole('list', { name: 'Monitors in Back end' }).getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Blog'),
      expect.stringContaining('Mail'),
    ]);
    await press(form.getByRole('button', { name: 'Move Mail up in Back end', exact: true }));
    await press(form.getByRole('button', { name: 'Move section Back end up', exact: true }));
    expect(
      await form.getByRole('group', { name: /^Section / }).evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label'))),
    ).toEqual(['Section Back end', 'Section Front end']);
    // Docs is in no section: first, without a heading, as on the public page.
    expect(await previewed()).toEqual([
      ['(none)', 'Docs'],
      ['Back end', 'Mail', 'Blog'],
      ['Front end', 'Shop'],
    ]);
    await checkPage('status-page-sections-editor');
    await page.screenshot({ path: '/tmp/status-page-sections-editor.png', fullPage: true });

    await form.getByRole('button', { name: 'Create status page' }).click();
    await notice('Status page "Ada services" created');
    const published = await readPublic('ada');
    expect(published.sections).toEqual([
      { name: null, monitor_count: 1 },
      { name: 'Back end', monitor_count: 2 },
      { name: 'Front end', monitor_count: 1 },
    ]);
    expect(published.monitors.map((m) => [m.name, m.section])).toEqual([
      ['Docs', null],
      ['Mail', 'Back end'],
      ['Blog', 'Back end'],
      ['Shop', 'Front end'],
    ]);
  });

  it('2. edits the sections: a repeated name named on the sections field before sending, then renamed and removed from the keyboard', async () => {
    await page.getByRole('button', { name: 'Edit Ada services' }).click();
    const form = page.getByRole('form', { name: 'Edit Ada services' });
    expect(await form.getByLabel('Name of section 1').inputValue()).toBe('Back end');
    expect(await previewed()).toEqual([
      ['(none)', 'Docs'],
      ['Back end', 'Mail', 'Blog'],
      ['Front end', 'Shop'],
    ]);

    // A second "back END" is refused by the form (the API would too): its message is the sections field's description.
    await press(form.getByRole('button', { name: 'Add section', exact: true }));
    await focused(form.getByLabel('Name of section 3'));
    await page.keyboard.type('back END');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await form.getByRole('alert').filter({ hasText: 'Some fields need a change' }).waitFor();
    const sections = form.getByRole('group', { name: 'Sections', exact: true });
    const describedBy = ((await sections.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    const description = (await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()))).join(' ');
    expect(description).toContain('Section 3 has the name of section 1: each section needs its own');
    await press(form.getByRole('button', { name: 'Remove section back END', exact: true }));
    // The focus goes back to "Add section", not to the top of the page.
    await focused(form.getByRole('button', { name: 'Add section', exact: true }));

    await form.getByLabel('Name of section 2').fill('Storefront');
    await press(form.getByRole('button', { name: 'Remove section Back end', exact: true }));
    expect(await previewed()).toEqual([
      ['(none)', 'Blog', 'Mail', 'Docs'],
      ['Storefront', 'Shop'],
    ]);
    await checkPage('status-page-sections-edit');
    await page.screenshot({ path: '/tmp/status-page-sections-edit.png', fullPage: true });
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await notice('Status page "Ada services" saved');
    const published = await readPublic('ada');
    expect(published.sections).toEqual([
      { name: null, monitor_count: 3 },
      { name: 'Storefront', monitor_count: 1 },
    ]);
    expect(published.monitors.map((m) => m.name)).toEqual(['Blog', 'Mail', 'Docs', 'Shop']);
  });
  it('3. serves the public page with its sections and 90-day bars to a visitor with JavaScript off, the days as the preview showed them', async () => {
    const context = await app.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      const visitor = await context.newPage();
      await visitor.goto(`${appUrl}/status/ada`);
      await visitor.getByRole('heading', { name: 'Ada services', level: 1 }).waitFor();
      // The monitors in no section first, each under its own heading, then "Storefront" with Shop one level below.
      const headings = await visitor.getByRole('heading').allTextContents();
      expect(headings.filter((name) => ['Blog', 'Mail', 'Docs', 'Storefront', 'Shop'].includes(name))).toEqual(['Blog', 'Mail', 'Docs', 'Storefront', 'Shop']);
      const storefront = visitor.getByRole('region', { name: 'Storefront', exact: true });
      expect(await storefront.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Storefront']);
      expect(await storefront.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Shop']);
      expect(await visitor.getByRole('heading', { name: 'Blog', level: 2 }).count()).toBe(1);
      expectShopBars(await bars(storefront, 'Shop'));
      for (const name of ['Blog', 'Mail', 'Docs']) expect(new Set((await bars(visitor.getByRole('region', { name, exact: true }), name)).map((d) => d.grade))).toEqual(new Set(['none']));
      await visitor.screenshot({ path: path.join(OUTPUT_DIR, 'web-status-page-sections-no-js.png'), fullPage: true });
    } finally {
      await context.close();
    }

    // The editor's preview names and grades every day as the page does.
    await page.getByRole('button', { name: 'Edit Ada services' }).click();
    await preview().getByRole('group', { name: 'Shop, uptime of the last 90 days', exact: true }).waitFor();
    expectShopBars(await bars(preview(), 'Shop'));
    await checkPage('status-page-sections-preview-bars');
  });
});
