import express from 'express';
import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { createLogger } from '@uptime/logger';
import { createApp } from '../src/app';
import { errorHandler } from '../src/http/error-handler';
import { requestContext } from '../src/http/request-context';
import { requestLogging, SLOW_REQUEST_MS } from '../src/http/request-log';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();

type Line = { level: number; msg: string; request_id?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number };

/** A pino logger at `level` whose JSON lines land in `lines`: what LOG_LEVEL would let through. */
function capturedLogger(level: string) {
  const lines: Line[] = [];
  const logger = createLogger({ level, service: 'request-log-test', destination: { write: (line) => void lines.push(JSON.parse(line) as Line) } });
  return { logger, lines };
}

/** The real api with that logger, on the harness's Postgres and Redis. */
function appLogging(level: string) {
  const { logger, lines } = capturedLogger(level);
  const app = createApp({ config: h.config, dataSource: h.ds, redis: h.redis, scheduler: h.scheduler, logger });
  return { app, lines };
}

const requestLines = (lines: Line[]) => lines.filter((l) => l.req !== undefined).map((l) => [l.level, l.msg, l.req!.method, l.req!.url, l.res?.statusCode]);

describe('request log lines, by LOG_LEVEL', () => {
  it('at info (the default): a successful request writes nothing; a refusal (4xx) one info line with its request id', async () => {
    const { app, lines } = appLogging('info');
    const { auth } = await aCaller(h.ds);
    expect((await request(app).get('/api/v1/monitors').set('Authorization', auth)).status).toBe(200);
    expect((await request(app).get('/api/v1/dashboard').set('Authorization', auth)).status).toBe(200);
    expect((await request(app).get('/healthz')).status).toBe(200);
    const refused = await request(app).get('/api/v1/monitors').set('X-Request-Id', 'refused-request-1');
    expect(refused.status).toBe(401);
    expect((await request(app).get('/api/v1/monitors/999999').set('Authorization', auth)).status).toBe(404);
    expect(requestLines(lines)).toEqual([
      [30, 'request completed', 'GET', '/api/v1/monitors', 401],
      [30, 'request completed', 'GET', '/api/v1/monitors/999999', 404],
    ]);
    expect(lines.find((l) => l.res?.statusCode === 401)?.request_id).toBe('refused-request-1');
  });

  it('at debug: every request but the probes, a success at debug', async () => {
    const { app, lines } = appLogging('debug');
    const { auth } = await aCaller(h.ds);
    expect((await request(app).get('/api/v1/monitors').set('Authorization', auth)).status).toBe(200);
    expect((await request(app).get('/readyz')).status).toBe(200);
    expect((await request(app).get('/api/v1/monitors')).status).toBe(401);
    expect(requestLines(lines)).toEqual([
      [20, 'request completed', 'GET', '/api/v1/monitors', 200],
      [30, 'request completed', 'GET', '/api/v1/monitors', 401],
    ]);
  });

  it('at warn: refusals are left out, a failure still shows', async () => {
    const { logger, lines } = capturedLogger('warn');
    const app = express();
    app.use(requestContext, requestLogging(logger));
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    app.get('/broken', () => {
      throw new Error('the handler broke');
    });
    app.use(errorHandler(logger));
    expect((await request(app).get('/ok')).status).toBe(200);
    expect((await request(app).get('/nothing')).status).toBe(404);
    expect((await request(app).get('/broken')).status).toBe(500);
    expect(requestLines(lines)).toEqual([[50, 'request errored', 'GET', '/broken', 500]]);
    // The error handler's own line, with the stack, beside the request's.
    expect(lines.map((l) => l.msg)).toEqual(['request failed', 'request errored']);
  });
});

describe('what is logged at info whatever it answered', () => {
  const { logger, lines } = capturedLogger('info');
  const app = express();
  app.use(requestContext, requestLogging(logger));
  app.get('/slow', (_req, res) => void setTimeout(() => res.json({ ok: true }), SLOW_REQUEST_MS + 100));
  app.get('/quick', (_req, res) => void res.json({ ok: true }));
  app.get('/broken', () => {
    throw new Error('the handler broke');
  });
  app.use(errorHandler(logger));
  beforeEach(() => void lines.splice(0));

  it(`a request slower than ${SLOW_REQUEST_MS} ms: warn, "slow request", with its time`, async () => {
    expect((await request(app).get('/quick')).status).toBe(200);
    expect((await request(app).get('/slow')).status).toBe(200);
    expect(requestLines(lines)).toEqual([[40, 'slow request', 'GET', '/slow', 200]]);
    expect(lines[0]!.responseTime).toBeGreaterThan(SLOW_REQUEST_MS);
  });

  it('a server error (5xx): error', async () => {
    expect((await request(app).get('/broken')).status).toBe(500);
    expect(requestLines(lines)).toEqual([[50, 'request errored', 'GET', '/broken', 500]]);
  });
});
