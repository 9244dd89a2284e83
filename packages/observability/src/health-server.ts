import { createServer, type Server } from 'node:http';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from './metrics';
import { createOpsHandler, type OpsDeps } from './ops-handler';

/**
 * Default ports of each process's health and metrics listener (HEALTH_PORT overrides; 9464 is
 * Prometheus' conventional exporter port, and the api, which `pnpm start` runs with the workers
 * in one process, takes the one below). Under NODE_ENV=test the default is 0 (an ephemeral
 * port), so test runs on one machine never collide.
 */
export const DEFAULT_HEALTH_PORTS = { api: 9463, 'check-worker': 9464, notifier: 9465 } as const;

export function healthPortOf(config: { env: string; healthPort?: number }, service: keyof typeof DEFAULT_HEALTH_PORTS): number {
  if (config.healthPort !== undefined) return config.healthPort;
  return config.env === 'test' ? 0 : DEFAULT_HEALTH_PORTS[service];
}

export interface RunningHealthServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * A small node:http listener with `/healthz`, `/readyz` and `/metrics`, the only place a process
 * serves its metrics (the api's public port does not). Started before anything else, so it
 * answers while the process is still connecting.
 */
export async function startHealthServer(
  opts: OpsDeps & { metrics: ServiceMetrics; host: string; port: number; logger: Logger },
): Promise<RunningHealthServer> {
  const handle = createOpsHandler(opts);
  const server = createServer((req, res) => {
    handle(req, res)
      .then((handled) => {
        if (handled) return;
        res.statusCode = 404;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Only /healthz, /readyz and /metrics are served here' } }));
      })
      .catch((err: unknown) => {
        opts.logger.error({ err, url: req.url }, 'health endpoint failed');
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
  });
  // Probes and scrapes are short; idle keep-alive sockets must not hold up shutdown.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  opts.logger.info({ url }, 'health and metrics listening');
  return {
    server,
    port,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
