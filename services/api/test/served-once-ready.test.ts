import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { openTestDatabase, resetDatabase, resetRedis, testConfig, waitFor } from '@uptime/testing';
import { startApi, type RunningApi } from '../src/start-api';

/**
 * `pnpm start` prints "uptime is ready" once the API's `ready` settles; the first request after it
 * must be served. It once met a 503 "Unavailable: database": the banner came before the request
 * pool had opened, and the gate still trusted the "not migrated yet" verdict it had just taken.
 */
jest.setTimeout(30_000);

let ds: DataSource;
let api: RunningApi | undefined;

beforeAll(async () => {
  ds = await openTestDatabase();
  await resetDatabase(ds);
  await resetRedis();
});

afterAll(async () => {
  await api?.close();
  await ds.destroy();
});

it('serves the first request after ready, though a request just before the start was refused', async () => {
  let databaseOpen!: () => void;
  const databaseReady = new Promise<void>((resolve) => (databaseOpen = resolve));
  const config = testConfig({ PORT: '0', RATE_LIMIT_PER_HOUR: '0' });
  api = await startApi({ config, dataSource: ds, logger: createLogger({ level: 'silent', service: 'test' }), databaseReady });
  // A well-formed token nobody holds: a 401 needs the api_tokens table, so the database.
  const monitors = async (): Promise<{ status: number; body: { error?: { code?: string; message?: string } } }> => {
    const res = await fetch(`${api!.url}/api/v1/monitors`, { headers: { Authorization: 'Bearer upt_nobodyholdsthistokennobodyholdsthistoken0' } });
    return { status: res.status, body: (await res.json()) as { error?: { code?: string; message?: string } } };
  };

  // Redis connects on its own meanwhile; the database waits for `databaseOpen`.
  await waitFor(async () => (await monitors()).body.error?.message === 'Unavailable: database; try again shortly', {
    timeoutMs: 10_000,
    intervalMs: 20,
    what: 'a 503 that names the database alone',
  });

  databaseOpen();
  await api.ready;
  expect(await monitors()).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
});
