import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import type { Express } from 'express';
import type { Config } from '@uptime/config';
import { carryOverAlertSettings, checkStoredSecrets, createDataSource, loadSecretKeyring, SecretsKeyError, type DataSource, type SecretKeyring } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { retryUntilSuccess, type ServiceMetrics } from '@uptime/observability';
import { createRedisConnection, createRequestRedisConnection, openMonitorScheduler, openQueue, QueueName, type MonitorScheduler } from '@uptime/queues';
import { createApp, withPingsFirst } from './app';
import { createApiServer } from './http/server-limits';
import { startScheduleReconciler } from './schedule-reconciler';
import { startMaintenanceJob } from './maintenance/maintenance-job';
import { resealChannelSecrets } from './channels/channel-secrets';

export interface ApiDeps {
  config: Config;
  /**
   * Migrations and background work (schedule reconciler, maintenance); may still be connecting.
   * Requests have a pool of their own, with deadlines (DEPENDENCY_TIMEOUT_MS), opened once this
   * one is migrated: until then every request but /healthz and /readyz is a 503.
   */
  dataSource: DataSource;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Resolves once `dataSource` is open and migrated; the schedule reconciler starts then. Default: open already. */
  databaseReady?: Promise<void>;
}

export interface RunningApi {
  server: Server;
  url: string;
  /**
   * Resolves once requests are served: the database migrated, the stored secrets found to open
   * with the configured keys, and the request path's own pool open. Until then every request but
   * /healthz and /readyz is a 503. Rejects when a shutdown ends the start-up first, and in
   * production with a SecretsKeyError when the keys cannot open the stored secrets.
   */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the API: listens at once (so /healthz answers while the database is still connecting),
 * manages schedules, and once the database is open reconciles them every minute.
 */
export async function startApi({ config, dataSource, logger, metrics, databaseReady = Promise.resolve() }: ApiDeps): Promise<RunningApi> {
  const redis = createRedisConnection(config.redis.url, 'uptime-api');
  const scheduler = openMonitorScheduler({ connection: redis, url: config.redis.url, prefix: config.redis.queuePrefix }, config.checkShards.shards, (url) =>
    createRedisConnection(url, 'uptime-api'),
  );
  for (const shard of scheduler.shards) shard.queue.on('error', (err) => logger.warn({ error: err.message, shard: shard.index }, 'queue connection error'));
  // Before anything connects: in production a missing SECRETS_KEY is a start error of its own.
  const keyring = loadSecretKeyring({ env: config.env, ...config.secrets, dataDir: config.local?.dataDir }, (line) => logger.info(line));
  const opening = new AbortController();
  // Nothing is served or run until the keys are known to open the stored secrets: in production
  // a key that cannot is a failed start (`ready` rejects), outside it an error line
  // (docs/channels.md, "Secrets at rest"). A database error meanwhile is waited out, as at start.
  const secretsOpen = databaseReady.then(() =>
    retryUntilSuccess('stored secrets check', () => checkStoredSecrets(dataSource.manager, keyring, { env: config.env, log: (line) => logger.error(line) }), {
      logger,
      signal: opening.signal,
      isFinal: (err) => err instanceof SecretsKeyError,
    }),
  );
  secretsOpen.catch(() => undefined);
  const requests = openRequestPath(config, logger, secretsOpen, opening.signal);
  const app = createApp({
    config,
    dataSource: requests.dataSource,
    redis: requests.redis,
    scheduler: requests.scheduler,
    statusChanges: requests.statusChanges,
    logger,
    metrics,
    started: requests.ready,
    keyring,
  });
  const background = startBackgroundJobsWhenReady({ config, dataSource, scheduler, redis, logger, keyring }, secretsOpen);
  // The background jobs stop before their connections go (the database may be open already).
  const stopStarting = (reason: string): void => {
    opening.abort(new Error(reason));
    background.stop();
  };
  const releaseConnections = async (quietly: boolean): Promise<void> => {
    const settle = async (p: Promise<unknown>): Promise<void> => void (await (quietly ? p.catch(() => undefined) : p));
    await settle(Promise.all([scheduler.close(), requests.scheduler.close(), requests.statusChanges.close()]));
    await settle(redis.quit());
    requests.redis.disconnect();
    if (requests.dataSource.isInitialized) await settle(requests.dataSource.destroy());
  };
  const server = await listen(app, config).catch(async (err: unknown) => {
    // Nothing started (EADDRINUSE and the like): let go of Redis, so the caller can stop it
    // without errors from our clients.
    stopStarting('not listening');
    await releaseConnections(true);
    throw err;
  });
  const url = addressOf(server, config);
  logger.info({ url }, 'api listening');
  return {
    server,
    url,
    ready: requests.ready,
    close: async () => {
      stopStarting('shutting down');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await releaseConnections(false);
    },
  };
}

/**
 * The request path's own Redis connection, queue and database pool, with deadlines: it fails
 * fast rather than waits on Postgres or Redis (docs/reliability.md). The pool opens once the
 * database is migrated and its secrets checked (`databaseReady`), retrying until it does or
 * `opening` is aborted.
 */
function openRequestPath(config: Config, logger: Logger, databaseReady: Promise<void>, opening: AbortSignal) {
  const redis = createRequestRedisConnection(config.redis.url, 'uptime-api-requests', config.dependencyTimeoutMs);
  // Its errors are the requests' 503s. Closing its queue removes BullMQ's listener, and a start that
  // fails (a port taken) disconnects it mid-handshake: its ready check's error must not go unheard.
  redis.on('error', (err: Error) => logger.debug({ error: err.message }, 'request redis connection error'));
  const scheduler = openMonitorScheduler({ connection: redis, url: config.redis.url, prefix: config.redis.queuePrefix }, config.checkShards.shards, (url) => {
    const shardRedis = createRequestRedisConnection(url, 'uptime-api-requests', config.dependencyTimeoutMs);
    shardRedis.on('error', (err: Error) => logger.debug({ error: err.message, url }, 'request redis connection error'));
    return shardRedis;
  });
  // While Redis is away its requests answer 503 on their own; the queue's own report is noise.
  for (const shard of scheduler.shards) shard.queue.on('error', (err) => logger.debug({ error: err.message }, 'request queue connection error'));
  const statusChanges = openQueue(QueueName.statusChanges, { connection: redis, prefix: config.redis.queuePrefix });
  statusChanges.on('error', (err) => logger.debug({ error: err.message }, 'request queue connection error'));
  const dataSource = createDataSource(config.databaseUrl, { poolSize: 20, applicationName: 'uptime-api', timeoutMs: config.dependencyTimeoutMs });
  const ready = databaseReady.then(() =>
    retryUntilSuccess('request database pool', async () => void (await dataSource.initialize()), {
      logger,
      signal: opening,
      firstDelayMs: 250,
      maxDelayMs: 2000,
    }),
  );
  ready.catch(() => undefined);
  return { redis, scheduler, statusChanges, dataSource, ready };
}

/**
 * Once the database is open: the schedule reconciler, and the hourly maintenance job (one instance
 * at a time: result partitions created ahead and compacted, old raw results and fine rollups gone;
 * docs/statistics.md, docs/capacity.md). A start-up aborted by a shutdown (or, in production,
 * stored secrets the keys cannot open) rejects databaseReady: then there is nothing to start.
 */
function startBackgroundJobsWhenReady(
  {
    config,
    dataSource,
    scheduler,
    redis,
    logger,
    keyring,
  }: { config: Config; dataSource: DataSource; scheduler: MonitorScheduler; redis: Redis; logger: Logger; keyring: SecretKeyring },
  databaseReady: Promise<void>,
): { stop(): void } {
  let stopped = false;
  const jobs: { stop(): void }[] = [];
  void databaseReady.then(
    () => {
      if (stopped) return;
      // The monitors' own Slack and webhook settings still waiting since migration 1796520200000
      // become their own channels (packages/db/src/own-channels/carry-over.ts); the alert-settings
      // routes carry a monitor they reach first on the spot. Then a key rotation (SECRETS_KEY_PREVIOUS
      // set) completes: every box is sealed again under SECRETS_KEY.
      const resealing = (): Promise<unknown> =>
        resealChannelSecrets(dataSource, keyring).then(
          (resealed) => resealed > 0 && logger.info({ resealed }, 'channel secrets sealed again under the current SECRETS_KEY'),
          (err: unknown) => logger.error({ error: (err as Error).message }, 'SECRETS_KEY cannot open the stored channel secrets: set SECRETS_KEY (and SECRETS_KEY_PREVIOUS) to the keys they were sealed with'),
        );
      carryOverAlertSettings(dataSource, keyring).then(
        (carried) => {
          if (carried > 0) logger.info({ monitors: carried }, "monitors' own Slack and webhook settings carried over into their own channels");
          return resealing();
        },
        (err: unknown) => {
          logger.error({ error: (err as Error).message }, "the monitors' own Slack and webhook settings could not be carried over into channels; retried at the next start");
          return resealing();
        },
      );
      jobs.push(startScheduleReconciler({ ds: dataSource, scheduler, redis, logger }));
      jobs.push(
        startMaintenanceJob({
          ds: dataSource,
          redis,
          prefix: config.redis.queuePrefix,
          resultRetentionDays: config.resultRetentionDays,
          auditRetentionDays: config.auditRetentionDays,
          logger,
        }),
      );
    },
    () => undefined,
  );
  return {
    stop: () => {
      stopped = true;
      for (const job of jobs) job.stop();
    },
  };
}

function listen(app: Express, config: Config): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = createApiServer(withPingsFirst(app), config.httpTimeouts);
    s.once('error', reject);
    s.listen(config.http.port, config.http.host, () => resolve(s));
  });
}

/** The URL the server listens at (the port the system chose when PORT is 0). */
function addressOf(server: Server, config: Config): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  return `http://${config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host}:${port}`;
}
