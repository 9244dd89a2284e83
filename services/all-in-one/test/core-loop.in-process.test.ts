import type { RunningApi } from '@uptime/api';
import { startApi } from '@uptime/api';
import { startCheckWorker, type RunningCheckWorker } from '@uptime/check-worker';
import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { startNotifier } from '@uptime/notifier';
import { aCaller, openTestDatabase, resetDatabase, resetRedis, startFakeHttpServer, startFakeSendGrid, testConfig, type FakeHttpServer, type FakeSendGrid } from '@uptime/testing';
import { runCoreLoopScenario } from './core-loop.scenario';

jest.setTimeout(90_000);

describe('core loop, api + check-worker + notifier in one process', () => {
  let ds: DataSource;
  let target: FakeHttpServer;
  let sendgrid: FakeSendGrid;
  let api: RunningApi;
  let worker: RunningCheckWorker;
  let notifier: { close(): Promise<void> };

  beforeAll(async () => {
    ds = await openTestDatabase();
    await resetDatabase(ds);
    await resetRedis();
    target = await startFakeHttpServer();
    sendgrid = await startFakeSendGrid();
    const config = testConfig({ PORT: '0', SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_API_URL: sendgrid.url });
    const logger = createLogger({ level: config.logLevel, service: 'test' });
    notifier = await startNotifier({ config, dataSource: ds, logger });
    worker = await startCheckWorker({ config, dataSource: ds, logger });
    api = await startApi({ config, dataSource: ds, logger });
  });

  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await notifier?.close();
    await target?.close();
    await sendgrid?.close();
    await ds?.destroy();
  });

  it('detects the downtime, notifies once, resolves on recovery and ignores redelivery', async () => {
    const { user, auth } = await aCaller(ds);
    await runCoreLoopScenario({ apiUrl: api.url, ds, target, sendgrid, auth, ownerEmail: user.email });
  });
});
