import type { RuleDefinition, RulesetDefinition } from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';

/**
 * Spectral's OWASP API Security Top 10 (2023) ruleset, from the `@stoplight/spectral-owasp-ruleset`
 * package, as the served document is linted with (spectral-owasp.test.ts). Every rule applies
 * except those set aside here, each with why; an exception names its paths, so that a route
 * added later meets the whole rule.
 *
 * Warnings are not failures, and those that remain are true of the API: no 401 on the
 * operations that need no caller (sign-in, the probes, this document, public pages), and
 * free-text strings (names, messages) bounded by length but not by a pattern.
 */
const base = owasp as RulesetDefinition & { rules: Record<string, RuleDefinition> };
const rule = (name: string): RuleDefinition => base.rules[name]!;

/**
 * Capability URLs: the token in the path is the credential, because whatever opens them cannot
 * send a header. Each operation says in its description what the token grants and how to revoke
 * it (`capability` in services/api/src/openapi/operation.ts). A route added with a `{token}` in
 * its path (heartbeat pings, when they come) fails spectral-owasp.test.ts until it is listed here
 * with its reason and described so.
 */
export const CAPABILITY_URL_PATHS = [
  // The one-time sign-in link, like a password-reset link: printed by `pnpm cli login-link` and
  // opened in a browser. It works once, for 15 minutes, and is stored only as a hash
  // (docs/security.md).
  '/api/v1/auth/link/{token}',
  // Badges, loaded by an <img> in a README: they only read one monitor's status or uptime, the
  // owner replaces or revokes them, and the token is stored only as a hash (docs/status-pages.md).
  '/badge/{token}/status.svg',
  '/badge/{token}/uptime.svg',
] as const;

/** The parameter of a capability URL that is its credential. */
const CAPABILITY_PARAMETER = 'token';

/**
 * Operations not rate limited, on purpose: the liveness and readiness probes. Load balancers and
 * orchestrators probe them, often from the one address the traffic they guard comes from (the
 * balancer's), so a limit that a flood of requests could use up would take every instance out of
 * service. They read nothing a stranger could use, and /readyz costs one `SELECT 1` and one
 * `PING`. Their descriptions say so (services/api/src/openapi/paths/operations.ts).
 */
export const NOT_RATE_LIMITED_PATHS = ['/healthz', '/readyz'] as const;

/**
 * The Path Item Objects of `$.paths` whose path is in (or not in) a list. Their operations are
 * then named one level down (`[*]`), not by a deep scan (`..`), which Spectral evaluates several
 * times slower behind a filter.
 */
const pathsIn = (paths: readonly string[]): string => `$.paths[?(${paths.map((p) => `@property === '${p}'`).join(' || ')})]`;
const pathsNotIn = (paths: readonly string[]): string => `$.paths[?(${paths.map((p) => `@property !== '${p}'`).join(' && ')})]`;
/** A query or path parameter, at the path's level or an operation's. */
const inUrl = (paths: string, filter: string): string[] => [`${paths}.parameters[?(${filter})].name`, `${paths}[*].parameters[?(${filter})].name`];

export const OWASP_RULESET: RulesetDefinition = {
  extends: [base],
  rules: {
    // Ids are integers by design (docs/api.md). Guessing one gains nothing: every route checks
    // who owns it; another user's monitor, notification or token answers 404 exactly as a
    // missing one does, and an agent its owner has not published is not found (docs/errors.md).
    'owasp:api1:2023-no-numeric-ids': 'off',
    // CORS headers are answered only to an allowed Origin (CORS_ORIGINS, docs/security.md) and
    // only when it asks, so no answer carries Access-Control-Allow-Origin unconditionally;
    // stating it on every response would be false. (The rule also reads any `headers` key below
    // a response, such as a monitor example's request headers.)
    'owasp:api8:2023-define-cors-origin': 'off',
    // Every 2xx/4xx answer carries X-RateLimit-*, but the probes'.
    'owasp:api4:2023-rate-limit': {
      ...rule('owasp:api4:2023-rate-limit'),
      given: `${pathsNotIn(NOT_RATE_LIMITED_PATHS)}[*].responses[?(@property.match(/^(2|4)/))]`,
    },
    // A warning in the package; an error here: every rate-limited operation declares its 429
    // (which the package's rate-limit-retry-after rule then holds to Retry-After, and the rule
    // above to X-RateLimit-*). The probes are the exception, as above.
    'owasp:api4:2023-rate-limit-responses-429': {
      ...rule('owasp:api4:2023-rate-limit-responses-429'),
      severity: 'error',
      given: `${pathsNotIn(NOT_RATE_LIMITED_PATHS)}[*].responses`,
    },
    // Every parameter is checked but the path `token` of the capability URLs; their query
    // parameters are checked too.
    'owasp:api2:2023-no-credentials-in-url': {
      ...rule('owasp:api2:2023-no-credentials-in-url'),
      given: [
        ...inUrl(pathsNotIn(CAPABILITY_URL_PATHS), '@ && @.in && @.in.match(/query|path/)'),
        ...inUrl(pathsIn(CAPABILITY_URL_PATHS), `@ && (@.in === 'query' || (@.in === 'path' && @.name !== '${CAPABILITY_PARAMETER}'))`),
        '$.components.parameters[?(@ && @.in && @.in.match(/query|path/))].name',
      ],
    },
  },
};
