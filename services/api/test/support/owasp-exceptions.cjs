'use strict';

/**
 * The paths that services/api/test/support/owasp-ruleset.mjs exempts from a rule of Spectral's
 * OWASP ruleset, each with why. CommonJS, so that both that ruleset (loaded by the Spectral CLI)
 * and spectral-owasp.test.ts (run by jest) read the one list.
 */

/**
 * Capability URLs: the token in the path is the credential, because whatever opens them cannot
 * send a header. Each operation says in its description what the token grants and how to revoke
 * it (`capability` in services/api/src/openapi/operation.ts). A route added with a `{token}` in
 * its path fails spectral-owasp.test.ts until it is listed here with its reason and described so.
 */
const CAPABILITY_URL_PATHS = Object.freeze([
  // The one-time sign-in link, like a password-reset link: printed by `pnpm cli login-link` and
  // opened in a browser. It works once, for 15 minutes, and is stored only as a hash
  // (docs/security.md).
  '/api/v1/auth/link/{token}',
  // Badges, loaded by an <img> in a README: they only read one monitor's status or uptime, the
  // owner replaces or revokes them, and the token is stored only as a hash (docs/status-pages.md).
  '/badge/{token}/status.svg',
  '/badge/{token}/uptime.svg',
  // A status page subscriber's links, opened from an email: confirming works once, within 24
  // hours; leaving ends one subscription to one page (docs/status-pages.md, "Subscribers").
  '/status/{slug}/subscription/confirm/{token}',
  '/status/{slug}/subscription/unsubscribe/{token}',
  // A heartbeat monitor's ping URL, pasted into a cron line (curl or wget): it reports on one
  // monitor's job and reads nothing; rotating it answers 404 to the old one at once
  // (docs/heartbeats.md).
  '/ping/{token}',
  '/ping/{token}/{signal}',
]);

/**
 * Writes that take no caller on purpose: a visitor of a public status page asks for emails (the
 * form and its JSON twin), and a subscriber leaves from an email's link (its token is the
 * credential; mail clients post to it for one-click unsubscribe, RFC 8058). Asking starts
 * nothing but a confirmation email (double opt-in), and is limited per IP and per page
 * (docs/status-pages.md, "Subscribers").
 */
const ANONYMOUS_WRITE_PATHS = Object.freeze([
  // A heartbeat's ping with the job's output as its body: its token is the credential (above).
  '/ping/{token}',
  '/ping/{token}/{signal}',
  '/api/v1/public/status-pages/{slug}/subscribers',
  '/status/{slug}/subscribe',
  '/status/{slug}/subscription/unsubscribe/{token}',
]);

/** The parameter of a capability URL that is its credential. */
const CAPABILITY_PARAMETER = 'token';

/**
 * Operations not rate limited, on purpose: the liveness and readiness probes. Load balancers and
 * orchestrators probe them, often from the one address the traffic they guard comes from (the
 * balancer's), so a limit that a flood of requests could use up would take every instance out of
 * service. They read nothing a stranger could use, and /readyz costs one `SELECT 1` and one
 * `PING`. Their descriptions say so (services/api/src/openapi/paths/operations.ts).
 */
const NOT_RATE_LIMITED_PATHS = Object.freeze(['/healthz', '/readyz']);

module.exports = { ANONYMOUS_WRITE_PATHS, CAPABILITY_URL_PATHS, CAPABILITY_PARAMETER, NOT_RATE_LIMITED_PATHS };
