import type { Locator, Page } from 'playwright-core';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import { appDriver } from './support/web-browser';

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
  /** The preview's groups as text: each heading, then its monitors' names. */
  async function previewed(): Promise<string[][]> {
    const headings = await preview().getByRole('heading', { level: 4 }).allTextContents();
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
    await nav('Status pages');
    await page.getByRole('button', { name: 'New status page' }).click();
    const form = page.getByRole('form', { name: 'New status page' });
    await form.getByLabel('Slug').fill('ada');
    await form.getByLabel('Title').fill('Ada services');
    for (const name of ['Shop', 'Blog', 'Mail', 'Docs']) await form.getByRole('checkbox', { name, exact: true }).check();
    await preview().getByRole('heading', { name: 'Ada services', level: 3 }).waitFor();
    expect(await previewed()).toEqual([['(none)', 'Shop', 'Blog', 'Mail', 'Docs']]);

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
});
