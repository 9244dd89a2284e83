import type { RequestHandler } from 'express';
import { roleAtLeast, type OrganizationRole } from '@uptime/db';
import { ForbiddenError } from '@uptime/errors';

/**
 * What an operation needs of its caller (docs/organizations.md, "Roles"):
 * - a role in the organization the request acts in (its token's, or the session's
 *   `X-Organization-Id`, else personal);
 * - `path-organization`: the route names an organization in its path and checks the caller's
 *   role there itself (the organization routes); the one the request acts in does not matter;
 * - `signed-in`: anything about the caller alone (their tokens, preferences, session), which every
 *   role may do for themselves.
 */
export type Need = OrganizationRole | 'path-organization' | 'signed-in';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The operations that do not need what their method does by default (`needOf`), by OpenAPI path. */
const EXCEPTIONS: readonly { method: Method; path: string; need: Need; why: string }[] = [
  { method: 'post', path: '/api/v1/notifications/{id}/acknowledge', need: 'viewer', why: 'a viewer on call acknowledges' },
  { method: 'get', path: '/api/v1/agents/{id}/credentials', need: 'member', why: "the agent's secret lets one answer as the agent" },
  { method: 'post', path: '/api/v1/auth/refresh', need: 'signed-in', why: "the caller's own session" },
  { method: 'post', path: '/api/v1/auth/logout', need: 'signed-in', why: "the caller's own session" },
  { method: 'post', path: '/api/v1/auth/tokens', need: 'signed-in', why: "the caller's own tokens, never able to do more than their role" },
  { method: 'delete', path: '/api/v1/auth/tokens/{id}', need: 'signed-in', why: "the caller's own tokens" },
  { method: 'put', path: '/api/v1/preferences', need: 'signed-in', why: "the caller's own preferences" },
  { method: 'post', path: '/api/v1/organizations', need: 'signed-in', why: 'anyone may found an organization of their own' },
  { method: 'post', path: '/api/v1/invitations/accept', need: 'signed-in', why: 'the invitation decides, by its address' },
];

/** Reads need a viewer; every other method changes something and needs a member. */
const byMethod = (method: string): Need => (['get', 'head', 'options'].includes(method.toLowerCase()) ? 'viewer' : 'member');

/** What the operation `method` `path` (an OpenAPI path, `/api/v1/monitors/{id}`) needs. */
export function needOf(method: string, path: string): Need {
  if (path.startsWith('/api/v1/organizations/{')) return 'path-organization';
  const exception = EXCEPTIONS.find((e) => e.method === method.toLowerCase() && e.path === path);
  return exception ? exception.need : byMethod(method);
}

/** `/api/v1/monitors/{id}` as a pattern of the path under /api/v1 (`/monitors/5`). */
const patternOf = (path: string): RegExp =>
  new RegExp(`^${path.slice('/api/v1'.length).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`);

const COMPILED = EXCEPTIONS.map((e) => ({ ...e, pattern: patternOf(e.path) }));

/** What a request to `path` (relative to /api/v1) needs. */
function needOfRequest(method: string, path: string): Need {
  if (path.startsWith('/organizations/')) return 'path-organization';
  const exception = COMPILED.find((e) => e.method === method.toLowerCase() && e.pattern.test(path));
  return exception ? exception.need : byMethod(method);
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses with 403 INSUFFICIENT_PERMISSIONS what the caller's role in the organization the request
 * acts in does not allow, and every unsafe method to a `read` token. Mounted after the caller is
 * known; the role is read with the caller on each request, so a change applies at once.
 */
export const enforcePermissions: RequestHandler = (req, _res, next) => {
  const caller = req.caller;
  if (!caller) return next();
  if (caller.scope === 'read' && !SAFE.has(req.method)) {
    return next(new ForbiddenError('This API token is read-only (scope "read"): it may not change anything', { required_scope: 'write', scope: 'read' }));
  }
  const need = needOfRequest(req.method, req.path);
  if (need === 'signed-in' || need === 'path-organization') return next();
  if (roleAtLeast(caller.organizationRole, need)) return next();
  next(
    new ForbiddenError(`This needs the ${need} role in the organization; you are ${caller.organizationRole === 'admin' ? 'an' : 'a'} ${caller.organizationRole}`, {
      required_role: need,
      role: caller.organizationRole,
    }),
  );
};
