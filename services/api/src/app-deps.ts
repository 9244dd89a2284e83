import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { DataSource, SecretKeyring } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ReadinessChecker, ServiceMetrics } from '@uptime/observability';
import type { CatalogQueue, MonitorScheduler, QueueName } from '@uptime/queues';
import type { ResponseInspector } from './openapi/response-inspection';

/**
 * What the API is made of. In a module of its own because both createApp (app.ts) and the
 * routers it mounts (api-v1.ts) take it: defined in app.ts, it made the two import each other.
 */
export interface AppDeps {
  config: Config;
  dataSource: DataSource;
  redis: Redis;
  /** The checks queue (schedules) on `redis`. */
  scheduler: MonitorScheduler;
  /**
   * The queue the notifiers consume (alert test sends, subscription confirmations) on `redis`.
   * Its owner closes it before `redis`: a queue still starting when its connection goes reports
   * errors of its own. Default: one opened by createApp, left for the process's end.
   */
  statusChanges?: CatalogQueue<typeof QueueName.statusChanges>;
  logger: Logger;
  /** The process's metrics, which its health listener serves (default: a registry of its own). */
  metrics?: ServiceMetrics;
  /** Default: Postgres through `dataSource` (once `started`) and Redis through `redis`. */
  readiness?: ReadinessChecker;
  /**
   * Resolves once `dataSource` is connected and migrated; until then every request but
   * /healthz and /readyz is a 503. Default: already.
   */
  started?: Promise<void>;
  /** Seals channel secrets (default: loadSecretKeyring() from the config; docs/channels.md). */
  keyring?: SecretKeyring;
  /** How long a live stream stays open before the browser reconnects (default 15 min; the API tests end them at once). */
  liveStreamLifetimeMs?: number;
  /** Sees every answer (the tests check each one against the OpenAPI document). */
  responseInspector?: ResponseInspector;
}

/** AppDeps with every queue the routes use decided. */
export type ResolvedAppDeps = AppDeps & Required<Pick<AppDeps, 'statusChanges'>>;
