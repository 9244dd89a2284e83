import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import { loadSecretKeyring, type DataSource, type SecretKeyring } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createServiceMetrics, type ServiceMetrics } from '@uptime/observability';
import { createRedisConnection, openMonitorScheduler, type MonitorScheduler } from '@uptime/queues';
import { openTestDatabase, resetDatabase, resetRedis, testConfig } from '@uptime/testing';
import { createApp } from '../../src/app';
import { checkInspectedResponse } from './document-contract';

export interface ApiHarness {
  app: Express;
  ds: DataSource;
  redis: Redis;
  scheduler: MonitorScheduler;
  config: Config;
  /** The app's metrics, which a process's health listener would serve (docs/operations.md). */
  metrics: ServiceMetrics;
  /** The key the app seals channel secrets with (the one a notifier of this checkout loads too). */
  keyring: SecretKeyring;
  /** Empty the database and this run's Redis keys. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * No web app unless a test names its folder (WEB_DIST_DIR): whether this checkout has built
 * services/web (the browser tests do) must not change what `/` or an unknown page answers.
 */
const NO_WEB_APP = path.join(os.tmpdir(), 'uptime-api-tests-serve-no-web-app');

/** The real app on this run's Postgres and Redis; call in beforeAll, `close()` in afterAll. */
export async function startApiHarness(overrides: Record<string, string | undefined> = {}): Promise<ApiHarness> {
  const config = testConfig({ WEB_DIST_DIR: NO_WEB_APP, ...overrides });
  const ds = await openTestDatabase();
  const redis = createRedisConnection(config.redis.url, 'uptime-api-test');
  // Connected before the first request: until then the app answers 503 (not ready), as it should.
  await redis.ping();
  // CHECK_SHARDS in `overrides` spreads the checks queue over shards, as in production (docs/scaling.md).
  const scheduler = openMonitorScheduler({ connection: redis, url: config.redis.url, prefix: config.redis.queuePrefix }, config.checkShards.shards, (url) =>
    createRedisConnection(url, 'uptime-api-test'),
  );
  const logger = createLogger({ level: config.logLevel, service: 'api-test' });
  // Every answer is checked against the OpenAPI document; a mismatch fails the test (jest setup).
  const metrics = createServiceMetrics();
  // A live stream ends right after its `ready` event, so a request of the generated tests gets a
  // whole answer (services/api/test/live-stream.test.ts keeps its streams open).
  const keyring = loadSecretKeyring({ env: config.env, ...config.secrets, dataDir: config.local?.dataDir }, () => undefined);
  const app = createApp({ config, dataSource: ds, redis, scheduler, logger, metrics, responseInspector: checkInspectedResponse, liveStreamLifetimeMs: 0, keyring });
  return {
    app,
    metrics,
    keyring,
    ds,
    redis,
    scheduler,
    config,
    reset: async () => {
      await resetDatabase(ds);
      await resetRedis(config.redis.queuePrefix);
    },
    close: async () => {
      await scheduler.close();
      await redis.quit();
      await ds.destroy();
    },
  };
}

/**
 * The harness of a whole test file: started before its tests, emptied before each one (before
 * the file's own beforeEach hooks, which run after this one), closed after them. Call it at the
 * top of the file; its members are available from the hooks and tests on.
 */
export function useApiHarness(overrides: Record<string, string | undefined> = {}): ApiHarness {
  let started: ApiHarness | undefined;
  const current = (): ApiHarness => {
    if (!started) throw new Error('the API harness starts in beforeAll: use it from hooks and tests');
    return started;
  };
  beforeAll(async () => {
    started = await startApiHarness(overrides);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => current().reset());
  return {
    get app() {
      return current().app;
    },
    get ds() {
      return current().ds;
    },
    get redis() {
      return current().redis;
    },
    get scheduler() {
      return current().scheduler;
    },
    get config() {
      return current().config;
    },
    get keyring() {
      return current().keyring;
    },
    get metrics() {
      return current().metrics;
    },
    reset: () => current().reset(),
    close: () => current().close(),
  };
}

/** Asserts the meta block and X-Request-Id header of docs/api.md ("Envelopes, ids and times"). */
/** An error answer with `status` and `code`, and the envelope's meta. */
export function expectError(res: { status: number; body: { error?: { code?: string }; meta?: { request_id?: string; timestamp?: string } }; headers: Record<string, string> }, status: number, code: string): void {
  expect([res.status, res.body.error?.code]).toEqual([status, code]);
  expectMeta(res);
}

export function expectMeta(res: { body: { meta?: { request_id?: string; timestamp?: string } }; headers: Record<string, string> }): void {
  expect(res.body.meta?.request_id).toBe(res.headers['x-request-id']);
  expect(res.body.meta?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
}
