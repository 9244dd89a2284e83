import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
// Relative imports: the root package depends on no service; the bench runs their code in-process.
import { createLoginLink } from '../services/api/src/auth/login-links.service';
import { Monitor, User } from '@uptime/db';
import { freePort } from '../packages/testing/src';
import { ensureWebBuilt, launchChromium, screenshot } from '../services/all-in-one/test/support/web-browser';
import { openBenchEnvironment } from './bench-environment';
import { seedOtherMonitors } from './stats/seed-stats';

/**
 * pnpm bench:web [-- --monitors 1000 --runs 5 --rollups 1000 --keep 1]
 * The web app in headless Chromium over N monitors of one user (a database of its own, with a
 * day of rollups per monitor): how long after navigation the dashboard and the monitor list show
 * their data, how much JavaScript the first load ships, and what one list page fetches. Each run
 * is a fresh browser context (empty cache). Prints a table and one JSON line (docs/web.md).
 * Not a timed test: the figures depend on the machine.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 1000);
const RUNS = Number(args.get('runs') ?? 5);
const ROLLUPS = Number(args.get('rollups') ?? Math.min(MONITORS, 1000));
const DIST = path.resolve(__dirname, '../services/web/dist');
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number): number => Math.round(bytes / 102.4) / 10;

const SERVICES = ['checkout', 'search', 'auth', 'billing', 'cdn', 'docs', 'status', 'api', 'images', 'mail'];
const REGIONS = ['eu-west', 'us-east', 'ap-south', 'sa-east'];

/** Milliseconds from the start of the page's navigation until `ready` is visible. */
async function msUntil(page: Page, ready: () => Promise<void>): Promise<number> {
  await ready();
  return Math.round(await page.evaluate<number>('performance.now()'));
}

async function main(): Promise<void> {
  ensureWebBuilt();
  const runId = Date.now().toString(36);
  // The login link and the OAuth redirect name the app's address: known before the app starts.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = await openBenchEnvironment('web', { PUBLIC_URL: origin, APP_URL: origin });
  const { ds } = env;
  const browser = await launchChromium();
  try {
    const now = new Date();
    const user = await ds.getRepository(User).save({ email: `bench-${runId}@example.test`, name: 'Bench', role: 'user' });
    const rows = Array.from({ length: MONITORS }, (_v, i): Partial<Monitor> => {
      const status = i % 97 === 3 ? 'offline' : i % 61 === 5 ? 'warning' : i % 83 === 7 ? 'paused' : 'online';
      const name = `${SERVICES[i % SERVICES.length]} ${REGIONS[Math.floor(i / SERVICES.length) % REGIONS.length]} ${Math.floor(i / 40) + 1}`;
      return {
        ownerId: user.id,
        name,
        url: `https://${name.replace(/ /g, '-')}.example.test/health`,
        timeout: 30,
        checkInterval: 60,
        status,
        tags: [SERVICES[i % SERVICES.length]!],
        responseTime: status === 'offline' ? null : 40 + ((i * 37) % 360),
        lastCheck: now,
        pausedAt: status === 'paused' ? now : null,
      };
    });
    const monitors = await ds.getRepository(Monitor).save(rows, { chunk: 500 });
    // Rollups (uptime, the 24-hour bars) for the first --rollups monitors: the list shows 25 at a time.
    await seedOtherMonitors(
      ds,
      monitors.slice(0, ROLLUPS).map((m) => m.id),
      now,
      1,
    );
    await ds.query('VACUUM ANALYZE');
    log(`${MONITORS} monitors, ${ROLLUPS} with a day of rollups`);

    await env.listen(port);

    const dashboardMs: number[] = [];
    const listMs: number[] = [];
    let firstLoadJs = 0;
    let listRequest = { url: '', bytes: 0 };
    let pagination = '';
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      let js = 0;
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script')
          void res.body().then(
            (b) => (js += b.length),
            () => undefined,
          );
        // The list's page of 25, not the dashboard's "Latest checks", which asks for its first 10.
        const asked = new URL(res.url());
        if (listRequest.url === '' && asked.pathname === '/api/v1/monitors' && asked.searchParams.get('limit') === '25')
          void res.body().then(
            (b) => (listRequest = { url: res.url().replace(origin, ''), bytes: b.length }),
            () => undefined,
          );
      });
      // Signed in through a one-time link, as a self-hoster would be; it lands on the dashboard.
      const link = await createLoginLink(ds, user.id, origin);
      await page.goto(link.url);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      // Then a cold load of the dashboard itself: nothing cached but the session.
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      js = 0;
      await page.goto(`${origin}/`);
      dashboardMs.push(
        await msUntil(page, () =>
          page.getByRole('heading', { name: 'Down now' }).locator('..').getByRole('link').first().waitFor({ timeout: 30_000 }),
        ),
      );
      firstLoadJs = js;
      if (run === 0) await screenshot(page, 'bench-dashboard');
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      await page.goto(`${origin}/monitors`);
      listMs.push(await msUntil(page, () => page.getByRole('table').getByRole('link').first().waitFor({ timeout: 30_000 })));
      // Interactive: the filter answers input at once.
      await page.getByRole('combobox', { name: 'Status' }).selectOption('offline');
      await page.getByRole('table').getByText('Offline', { exact: true }).first().waitFor();
      await page.getByRole('combobox', { name: 'Status' }).selectOption('');
      pagination = (await page.getByRole('navigation', { name: 'Monitor pages' }).textContent()) ?? '';
      if (run === 0) await screenshot(page, 'bench-monitors');
      await context.close();
    }

    const jsFiles = readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
    const gzipped = jsFiles.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(DIST, 'assets', f)), { level: 9 }).length, 0);
    const table: [string, string][] = [
      ['monitors', String(MONITORS)],
      ['dashboard shows its data (median, ms)', `${median(dashboardMs)} (runs: ${dashboardMs.join(', ')})`],
      ['monitor list shows its rows (median, ms)', `${median(listMs)} (runs: ${listMs.join(', ')})`],
      ['first load JavaScript', `${kb(firstLoadJs)} KB raw, ${kb(gzipped)} KB gzipped (${jsFiles.length} file)`],
      ['one list page', `${listRequest.url}: ${kb(listRequest.bytes)} KB; ${pagination.replace(/\s+/g, ' ').trim()}`],
    ];
    for (const [k, v] of table) console.log(`${k.padEnd(44)} ${v}`);
    console.log(
      JSON.stringify({
        monitors: MONITORS,
        runs: RUNS,
        dashboardMs,
        listMs,
        firstLoadJsBytes: firstLoadJs,
        firstLoadJsGzipBytes: gzipped,
        listPage: listRequest,
        pass: median(dashboardMs) < 1000 && median(listMs) < 1000 && gzipped <= 200 * 1024,
      }),
    );
  } finally {
    await browser.close();
    await env.close(args.has('keep'));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
