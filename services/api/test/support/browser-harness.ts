import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startApiHarness, type ApiHarness } from './api-harness';

/** Debian's chromium (.ci/run installs it); a browser is never downloaded. */
const CHROMIUM = '/usr/bin/chromium';

/** Where browser tests leave their screenshots. */
export const OUTPUT_DIR = path.resolve(__dirname, '../../../../test-output');

export interface BrowserHarness {
  api: ApiHarness;
  /** The app listening on a loopback port. */
  baseUrl: string;
  browser: BrowserContext;
  /** The context's first page. */
  page(): Promise<Page>;
  close(): Promise<void>;
}

/** The API on a loopback port and headless Chromium with a profile of its own; `close()` in afterAll. */
export async function startBrowserHarness(options: { javaScriptEnabled?: boolean; timezoneId?: string; locale?: string } = {}): Promise<BrowserHarness> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const api = await startApiHarness();
  await api.reset();
  const server = await new Promise<Server>((resolve) => {
    const s = api.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const profile = mkdtempSync(path.join(tmpdir(), 'uptime-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
    args: ['--no-sandbox', '--disable-background-networking', '--headless=new', '--disable-gpu', '--no-first-run', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 1000 },
  });
  mkdirSync(OUTPUT_DIR, { recursive: true });
  return {
    api,
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    browser,
    page: async () => browser.pages()[0] ?? (await browser.newPage()),
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.close();
    },
  };
}
