import request, { type Response } from 'supertest';
import type { Express } from 'express';

/** The `uptime.sid` cookie of a response, parsed. */
export interface SetSessionCookie {
  /** `uptime.sid=...`, ready for a Cookie header. */
  pair: string;
  /** The session id inside the signed value. */
  sid: string;
  /** Lower-cased attribute names and values: `httponly`, `samesite=lax`, `expires=...`. */
  attributes: string[];
  expires: Date | null;
}

export function sessionCookieOf(res: Response): SetSessionCookie | undefined {
  const raw = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('uptime.sid='));
  if (!raw) return undefined;
  const [pair, ...attrs] = raw.split(';').map((p) => p.trim());
  const value = decodeURIComponent(pair!.slice('uptime.sid='.length));
  const sid = /^s:([^.]+)\./.exec(value)?.[1] ?? '';
  const attributes = attrs.map((a) => a.toLowerCase());
  const expires = attrs.find((a) => a.toLowerCase().startsWith('expires='));
  return { pair: pair!, sid, attributes, expires: expires ? new Date(expires.slice('expires='.length)) : null };
}

export interface LoginStart {
  res: Response;
  /** The provider's authorization URL we were sent to. */
  authorizeUrl: URL;
  /** The cookie to carry into the callback: the one just set, else the one sent. */
  cookie: string | undefined;
  preLoginSid: string | undefined;
}

export async function startLogin(
  app: Express,
  provider: string,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<LoginStart> {
  const req = request(app).get(`/api/v1/auth/${provider}/login`).set(headers);
  if (cookie) req.set('Cookie', cookie);
  const res = await req;
  if (res.status !== 302) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`);
  const set = sessionCookieOf(res);
  return { res, authorizeUrl: new URL(res.headers.location!), cookie: set?.pair ?? cookie, preLoginSid: set?.sid };
}

/** The browser at the provider: consents and follows the redirect back, answered as a callback path. */
export async function consent(authorizeUrl: URL): Promise<string> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`provider answered ${res.status}: ${await res.text()}`);
  const back = new URL(res.headers.get('location')!);
  return back.pathname + back.search;
}

export interface SignedIn {
  login: LoginStart;
  callback: Response;
  /** The post-sign-in cookie (`uptime.sid=...`). */
  cookie: string;
  sid: string;
  setCookie: SetSessionCookie;
}

/** The whole browser flow: login → provider → callback; fails loudly unless it signs in. */
export async function signIn(app: Express, provider: string, cookie?: string, headers: Record<string, string> = {}): Promise<SignedIn> {
  const login = await startLogin(app, provider, cookie, headers);
  const callbackPath = await consent(login.authorizeUrl);
  const req = request(app).get(callbackPath).set(headers);
  if (login.cookie) req.set('Cookie', login.cookie);
  const callback = await req;
  const setCookie = sessionCookieOf(callback);
  if (callback.status !== 302 || !setCookie) throw new Error(`callback answered ${callback.status}: ${JSON.stringify(callback.body)}`);
  return { login, callback, cookie: setCookie.pair, sid: setCookie.sid, setCookie };
}
