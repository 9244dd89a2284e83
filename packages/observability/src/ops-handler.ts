import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceMetrics } from './metrics';
import type { ReadinessChecker } from './readiness';

/** The operations paths every service answers, without authentication (docs/operations.md). */
export const OPS_PATHS = ['/healthz', '/readyz', '/metrics'] as const;
export type OpsPath = (typeof OPS_PATHS)[number];

export interface OpsDeps {
  readiness: ReadinessChecker;
  /** Served at `/metrics`; without it that path is left to the caller (the api's public port). */
  metrics?: ServiceMetrics;
}

/** The ops path a request targets (query strings ignored), or null. */
export function opsPathOf(req: Pick<IncomingMessage, 'method' | 'url'>): OpsPath | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const path = (req.url ?? '').split('?')[0];
  return (OPS_PATHS as readonly string[]).includes(path) ? (path as OpsPath) : null;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

/**
 * Answers `/healthz` (the process is alive: always 200 while it can answer at all), `/readyz`
 * (200 when Postgres and Redis answer, else 503 with what failed) and, given `metrics`,
 * `/metrics` (Prometheus text). Returns false for any other request, which the caller handles.
 */
export function createOpsHandler(deps: OpsDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (req, res) => {
    const path = opsPathOf(req);
    if (path === null || (path === '/metrics' && !deps.metrics)) return false;
    if (path === '/healthz') {
      send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ status: 'ok' }));
    } else if (path === '/readyz') {
      const report = await deps.readiness.check();
      const body = { status: report.ready ? 'ready' : 'unavailable', checks: report.checks, ...(report.details ? { details: report.details } : {}) };
      if (!report.ready) res.setHeader('Retry-After', '5');
      send(res, report.ready ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify(body));
    } else if (deps.metrics) {
      send(res, 200, deps.metrics.registry.contentType, await deps.metrics.render());
    }
    return true;
  };
}
