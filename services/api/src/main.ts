import 'reflect-metadata';
import { runService, stoppable } from '@uptime/observability';
import { startApi } from './start-api';

/**
 * The standalone API process. It listens at once: /healthz answers 200 and /readyz 503 while
 * Postgres is still being connected to (retried, never a reason to exit), and other requests
 * get 503 until then. SIGTERM: stop accepting connections, let requests in flight finish within
 * 30 s, close pools, exit 0 (1 when requests had to be cut off). See runService.
 */
void runService({
  service: 'api',
  // Migrations and background work only: requests have a pool of their own (start-api.ts).
  pool: { size: 4, applicationName: 'uptime-api-background' },
  // /metrics is served there only, at 127.0.0.1 unless HEALTH_HOST says otherwise: PORT is public.
  healthListener: 'api',
  start: async (context) => {
    const api = await startApi(context);
    // In production, stored secrets the keys cannot open fail the start (docs/channels.md).
    return {
      ...stoppable(
        context.logger,
        () => api.close(),
        () => api.server.closeAllConnections(),
      ),
      ready: api.ready,
    };
  },
});
