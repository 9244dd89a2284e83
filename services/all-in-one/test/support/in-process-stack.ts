import { startApi, type RunningApi } from '@uptime/api';
import { startCheckWorker, type RunningCheckWorker } from '@uptime/check-worker';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import { createLogger, type Logger } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import { openTestDatabase, resetDatabase, resetRedis, startFakeSendGrid, testConfig, type FakeSendGrid } from '@uptime/testing';

type ExtraCheckWorkerDeps = Omit<Parameters<typeof startCheckWorker>[0], 'config' | 'dataSource' | 'logger'>;

export interface InProcessStackOptions {
  /** Start the check-worker with the stack; default true. `startCheckWorker()` starts it later. */
  checkWorker?: boolean;
  /** Start the notifier; default true. */
  notifier?: boolean;
  /** Environment on top of the test defaults (SendGrid already points at the fake). */
  env?: Record<string, string>;
  /** Takes every JSON log line (at LOG_LEVEL) instead of stdout: a test reading what was logged. */
  logDestination?: { write(line: string): void };
}

/** api, check-worker and notifier in this process, on a fresh test database and Redis prefix. */
export interface InProcessStack {
  ds: DataSource;
  config: Config;
  logger: Logger;
  sendgrid: FakeSendGrid;
  api: RunningApi;
  /** The notifier, when started with the stack. */
  notifier: Notifier | undefined;
  /** Starts the check-worker (once), with `deps` on top of the stack's; the stack closes it. */
  startCheckWorker(deps?: ExtraCheckWorkerDeps): Promise<RunningCheckWorker>;
  /** Stops the services, then the fakes, then the database connection. */
  close(): Promise<void>;
}

export async function startInProcessStack({ checkWorker = true, notifier = true, env = {}, logDestination }: InProcessStackOptions = {}): Promise<InProcessStack> {
  const ds = await openTestDatabase();
  await resetDatabase(ds);
  await resetRedis();
  const sendgrid = await startFakeSendGrid();
  const config = testConfig({ PORT: '0', SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_API_URL: sendgrid.url, ...env });
  const logger = createLogger({ level: config.logLevel, service: 'test', destination: logDestination });
  // Each component's lines say whose they are, as in the all-in-one process (services/all-in-one/src/main.ts).
  const runningNotifier = notifier ? await startNotifier({ config, dataSource: ds, logger: logger.child({ component: 'notifier' }) }) : undefined;
  let worker: Promise<RunningCheckWorker> | undefined;
  const startWorker = (deps: ExtraCheckWorkerDeps = {}): Promise<RunningCheckWorker> =>
    (worker ??= startCheckWorker({ ...deps, config, dataSource: ds, logger: logger.child({ component: 'check-worker' }) }));
  if (checkWorker) await startWorker();
  const api = await startApi({ config, dataSource: ds, logger: logger.child({ component: 'api' }) });
  await api.ready;

  return {
    ds,
    config,
    logger,
    sendgrid,
    api,
    notifier: runningNotifier,
    startCheckWorker: startWorker,
    async close() {
      await api.close();
      await (await worker)?.close();
      await runningNotifier?.close();
      await sendgrid.close();
      await ds.destroy();
    },
  };
}
