import type { Express } from 'express';
import request from 'supertest';
import { OPS_PATHS } from '@uptime/observability';
import { buildOpenApiDocument } from '../src/openapi/document';
import { startApiHarness, type ApiHarness } from './support/api-harness';

/** What Express 5's router (router@2) keeps of each layer; `rawPath` is the path it was mounted or declared with. */
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** The explorer (/api/docs) is a web page with its assets, not an API operation. */
const NOT_API = ['/api/docs'];

const join = (prefix: string, path: string): string => (path === '/' ? prefix || '/' : `${prefix}${path}`);
const toTemplate = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

/** Every `METHOD /path` the app's routers declare, nested routers included, as OpenAPI templates. */
function servedRoutes(app: Express): Set<string> {
  const served = new Set<string>();
  const walk = (stack: Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        if (typeof layer.route.path !== 'string') throw new Error(`A route with a non-string path under ${prefix}: ${String(layer.route.path)}`);
        const path = toTemplate(join(prefix, layer.route.path));
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') throw new Error(`${path} answers every method (router.all): describe it or remove it`);
          served.add(`${method.toUpperCase()} ${path}`);
        }
      } else if (layer.handle?.stack) {
        // A mounted router: its mount path is needed to name its routes.
        if (typeof layer.rawPath !== 'string') throw new Error(`A router mounted under ${prefix || '/'} without a readable mount path (router@2 layer.rawPath)`);
        walk(layer.handle.stack, join(prefix, layer.rawPath === '/' ? '' : layer.rawPath));
      }
    }
  };
  walk((app.router as unknown as { stack: Layer[] }).stack, '');
  return served;
}

/**
 * The heartbeat ping routes are a middleware the app mounts first, not routes of its router
 * (docs/heartbeats.md, "How it is built"), so the walk cannot see them: each documented ping
 * operation is asked with a token nobody has, and counts as served when the ping routes answer
 * it (their text/plain "not found"), not the app's JSON 404 for a path it does not serve.
 */
async function servedPingOperations(app: Express, documented: Set<string>): Promise<Set<string>> {
  const served = new Set<string>();
  for (const operation of documented) {
    const [method, path] = operation.split(' ') as [string, string];
    if (!path.startsWith('/ping/')) continue;
    const url = path.replace('{token}', 'no-such-token-0000000000000000').replace('{signal}', 'start');
    const res = await request(app)[method.toLowerCase() as 'get' | 'post'](url);
    if (res.status === 404 && res.type === 'text/plain' && res.text === 'not found') served.add(operation);
  }
  return served;
}

describe('route coverage: the document and the app serve the same operations', () => {
  let h: ApiHarness;
  let pings: Set<string>;
  beforeAll(async () => {
    h = await startApiHarness();
    pings = await servedPingOperations(h.app, documented());
  });
  afterAll(() => h.close());

  const documented = (): Set<string> => {
    const doc = buildOpenApiDocument();
    return new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)));
  };

  /**
   * The routes plus the probes, which a middleware answers before routing (http/ops.ts); not
   * /metrics, which only the process's health listener serves.
   */
  const served = (): Set<string> => {
    const routes = [...servedRoutes(h.app)].filter((r) => !NOT_API.some((p) => r.split(' ')[1]!.startsWith(p)));
    return new Set([...routes, ...pings, ...OPS_PATHS.filter((p) => p !== '/metrics').map((p) => `GET ${p}`)]);
  };

  it('finds the ping routes answering ahead of the router', () => {
    expect([...pings].sort()).toEqual(['GET /ping/{token}', 'GET /ping/{token}/{signal}', 'POST /ping/{token}', 'POST /ping/{token}/{signal}']);
  });

  it('finds the routers and their routes', () => {
    const routes = servedRoutes(h.app);
    expect(routes.size).toBeGreaterThan(45);
    expect(routes).toContain('GET /api/v1/monitors/{id}');
    expect(routes).toContain('POST /api/v1/monitors/bulk');
    expect(routes).toContain('GET /api/v1/auth/{provider}/callback');
    expect(routes).toContain('GET /api/v1/openapi.json');
  });

  it('documents every route the app serves', () => {
    const missing = [...served()].filter((r) => !documented().has(r));
    expect(missing).toEqual([]);
  });

  it('serves every operation the document describes', () => {
    const extra = [...documented()].filter((r) => !served().has(r));
    expect(extra).toEqual([]);
  });
});
