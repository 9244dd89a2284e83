import type { Browser, Page } from 'playwright-core';
import type { DataSource } from '@uptime/db';
import {
  answer,
  startFakeHttpServer,
  startFakeOAuthProvider,
  waitFor,
  type FakeHandler,
  type FakeHttpServer,
  type FakeOAuthProvider,
} from '@uptime/testing';
import { startInProcessStack, type InProcessStack } from './in-process-stack';
import { appAddress, collectPageProblems, ensureWebBuilt, launchChromium, openAppPage } from './web-browser';

/** The person a browser test signs in as, through the fake GitHub. */
export interface Person {
  id: string;
  email: string;
  name: string;
}

export interface BrowserAppOptions {
  person: Person;
  /** How the monitored target answers at first; default 200 "all good". */
  target?: FakeHandler;
  /** Start the check-worker with the stack; default true (`stack.startCheckWorker()` starts it later). */
  checkWorker?: boolean;
  /** More environment for the stack (MIN_CHECK_INTERVAL_SECONDS at its production value, say). */
  env?: Record<string, string>;
}

/** The web app served by the in-process stack, a fake GitHub, one target, and a page in Chromium. */
export interface BrowserApp {
  stack: InProcessStack;
  github: FakeOAuthProvider;
  target: FakeHttpServer;
  browser: Browser;
  page: Page;
  /** What the page logged as errors; a test expects none (`expect(problems.splice(0)).toEqual([])`). */
  problems: string[];
  appUrl: string;
  /** The browser, then the stack, then the fakes. */
  close(): Promise<void>;
}

/**
 * What every browser test starts from (docs/testing.md): the web app built, `person` able to sign
 * in through the fake GitHub, a target to monitor, and the stack serving the app at an address
 * known before it starts.
 */
export async function startBrowserApp({
  person,
  target: handler = answer(200, 'all good'),
  checkWorker = true,
  env: extraEnv = {},
}: BrowserAppOptions): Promise<BrowserApp> {
  ensureWebBuilt();
  // What started is closed again, last first, if a later step fails.
  const started: (() => Promise<unknown>)[] = [];
  try {
    const github = await startFakeOAuthProvider('github');
    started.push(() => github.close());
    github.signInAs({ ...person, emailVerified: true });
    const target = await startFakeHttpServer(handler);
    started.push(() => target.close());
    const { appUrl, env } = await appAddress();
    const stack = await startInProcessStack({ checkWorker, env: { ...env, ...github.env, ...extraEnv } });
    started.push(() => stack.close());
    const browser = await launchChromium();
    started.push(() => browser.close());
    const page = await openAppPage(browser);
    return {
      stack,
      github,
      target,
      browser,
      page,
      problems: collectPageProblems(page),
      appUrl,
      async close() {
        await browser.close();
        await stack.close();
        await Promise.all([target.close(), github.close()]);
      },
    };
  } catch (err) {
    for (const close of started.reverse()) await close().catch(() => undefined);
    throw err;
  }
}

/** Waits until the server has the monitor named `name` in `status`: what the page's next refresh shows. */
export async function monitorOnServer(ds: DataSource, name: string, status: string): Promise<void> {
  await waitFor(
    async () => ((await ds.query('SELECT status FROM monitors WHERE name = $1', [name])) as { status: string }[])[0]?.status === status,
    { what: `${name} ${status} on the server`, timeoutMs: 20_000, intervalMs: 50 },
  );
}
