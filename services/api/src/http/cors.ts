import cors from 'cors';
import type { RequestHandler } from 'express';
import { ForbiddenError } from '@uptime/errors';

/** Headers a browser script may read on our answers. */
const EXPOSED = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];

/**
 * CORS with credentials, only for the origins of `CORS_ORIGINS` (exact scheme://host[:port]).
 * Other origins get no CORS headers, so browsers keep their scripts from reading our answers;
 * their preflights are refused with a 403. Requests without an Origin (curl, servers) and
 * same-origin ones are untouched: CORS is a browser rule, authentication is ours.
 */
export function corsPolicy(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins.map((o) => o.replace(/\/+$/, '')));
  const withCors = cors({
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: EXPOSED,
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => {
    const origin = req.get('origin');
    const isPreflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    if (origin !== undefined && isPreflight && !allowed.has(origin)) {
      res.vary('Origin');
      return next(new ForbiddenError(`Origin ${origin} is not allowed to call this API (CORS_ORIGINS)`));
    }
    withCors(req, res, next);
  };
}
