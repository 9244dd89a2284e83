import type { RequestHandler } from 'express';
import helmet from 'helmet';

type Directives = Record<string, string[]>;

/** Everything from this origin only, no plugins, no framing by other sites. */
const SAME_ORIGIN: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'"],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
};

/**
 * helmet with the CSP of a page the api serves (the web app, the API explorer): the same-origin
 * policy above plus what `extra` adds per directive. `upgradeInsecureRequests` follows
 * REQUIRE_HTTPS, so a plain-HTTP install still loads its own files.
 */
export function pageSecurity(upgradeInsecureRequests: boolean, extra: Directives = {}): RequestHandler {
  const directives: Directives = { ...SAME_ORIGIN };
  for (const [name, sources] of Object.entries(extra)) directives[name] = [...(directives[name] ?? []), ...sources];
  if (upgradeInsecureRequests) directives['upgrade-insecure-requests'] = [];
  return helmet({ contentSecurityPolicy: { useDefaults: false, directives } });
}
