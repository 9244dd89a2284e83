import RedisStore from 'connect-redis';
import session from 'express-session';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { OAuthProvider } from '@uptime/db';

/** The session cookie's name (docs/security.md). */
export const SESSION_COOKIE = 'uptime.sid';

declare module 'express-session' {
  interface SessionData {
    /** Set only by a completed sign-in, on a freshly regenerated session. */
    userId?: number;
    /** The provider this session signed in with (`GET /auth/user` → `provider`). */
    provider?: OAuthProvider;
    /** When the session was last extended; changing it makes express-session re-send the cookie. */
    refreshedAt?: number;
  }
}

export interface SessionCookieOptions {
  httpOnly: true;
  sameSite: 'lax';
  secure: boolean;
  path: string;
  maxAge: number;
}

/** HttpOnly, SameSite=Lax, Secure whenever the public URL is https (docs/security.md). */
export function sessionCookieOptions(config: Config): SessionCookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.http.publicUrl.startsWith('https:'),
    path: '/',
    maxAge: config.session.ttlSeconds * 1000,
  };
}

/**
 * Sessions in Redis, shared by every API instance. A session lives `SESSION_TTL_SECONDS` from
 * sign-in or from the last `POST /auth/refresh`: `disableTouch` keeps ordinary requests from
 * quietly sliding the Redis expiry past the cookie's, so a copied cookie cannot outlive it.
 * Nothing is stored for a visitor who never starts a sign-in (saveUninitialized: false).
 */
export function sessionMiddleware(config: Config, redis: Redis): RequestHandler {
  const store = new RedisStore({ client: redis, prefix: `${config.redis.queuePrefix}:sess:`, disableTouch: true });
  return session({
    name: SESSION_COOKIE,
    secret: config.session.secret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    cookie: sessionCookieOptions(config),
  });
}
