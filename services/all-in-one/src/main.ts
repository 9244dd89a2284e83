import 'reflect-metadata';
import { withRedisUrl } from '@uptime/config';
import { startApi } from '@uptime/api';
import { startCheckWorker, type RunningCheckWorker } from '@uptime/check-worker';
import { defaultLogFormat } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import { runService, stoppable, type ServiceContext, type StoppableService } from '@uptime/observability';
import { printBanner, startupBanner } from './banner';
import { provideLocalServices, type LocalServices } from './local/local-services';

/**
 * api, check-worker and notifier in one Node process (`pnpm start`), for local use and small
 * self-hosted installs. They share one database pool and one metrics registry (/metrics on the
 * health listener shows all three) and talk through Redis exactly as when they run apart. The API
 * listens first, so /healthz and /readyz answer while Postgres is still being connected to.
 */
async function startAllInOne(context: ServiceContext, local: LocalServices): Promise<StoppableService> {
  const { config, dataSource, logger, metrics, databaseReady, readiness } = context;
  const api = await startApi({ config, dataSource, logger: logger.child({ component: 'api' }), metrics, databaseReady });
  const apiService = stoppable(logger, () => api.close(), () => api.server.closeAllConnections());
  // Filled in once started; stop() stops whatever has started by then.
  const started: { notifier?: Notifier; worker?: RunningCheckWorker } = {};
  const ready = databaseReady.then(async () => {
    started.notifier = await startNotifier({ config, dataSource, logger: logger.child({ component: 'notifier' }), metrics });
    started.worker = await startCheckWorker({ config, dataSource, logger: logger.child({ component: 'check-worker' }), metrics, readiness });
    // "Ready" is a promise to whoever opens the URL: the API's requests have their own pool, which
    // may still be opening when the workers are up.
    await api.ready;
    printBanner(startupBanner(config, local), (config.logFormat ?? defaultLogFormat()) === 'pretty', logger);
  });
  return {
    ready,
    stop: async ({ graceMs }) => {
      // Everything stops taking work at once; the grace is shared, not added up.
      const deadline = Date.now() + graceMs;
      const left = (): number => Math.max(0, deadline - Date.now());
      const outcomes = await Promise.all([apiService.stop({ graceMs: left() }), started.worker?.stop({ graceMs: left() }) ?? 'graceful']);
      // The notifier last: a check finished during shutdown may still publish a status change.
      outcomes.push((await started.notifier?.stop({ graceMs: Math.max(left(), 1000) })) ?? 'graceful');
      return outcomes.every((o) => o === 'graceful') ? 'graceful' : 'forced';
    },
  };
}

/** The start-up error in words that name the setting to change, where there is one. */
function startupFailure(err: unknown): string {
  const { code, address, port } = (err ?? {}) as { code?: string; address?: string; port?: number };
  if (code === 'EADDRINUSE') return `${address}:${port} is already in use by another program: set PORT (or HOST) to a free address, or stop that program.`;
  // One plain message, no stack trace: the errors met here say what to do (a missing Redis, a
  // data folder in use, an embedded database that could not start).
  return err instanceof Error ? err.message : String(err);
}

/** Set by `prepare`, before the services start. */
const provided: { local?: LocalServices } = {};

void runService({
  service: 'uptime',
  pool: { size: 20, applicationName: 'uptime' },
  // The api's listener (HEALTH_PORT, 9463), with the metrics of all three components.
  healthListener: 'api',
  // Postgres and Redis: configured, found at the default addresses, or started here (docs/first-run.md).
  prepare: async (configured, logger) => {
    const local = await provideLocalServices(configured, logger);
    provided.local = local;
    return { config: { ...withRedisUrl(configured, local.redisUrl), databaseUrl: local.databaseUrl }, release: () => local.stop() };
  },
  start: (context) => startAllInOne(context, provided.local!),
  describeFailure: startupFailure,
});
