import type { RuleDefinition, RulesetDefinition } from '@stoplight/spectral-core';
import owasp from '@stoplight/spectral-owasp-ruleset';

/**
 * Spectral's OWASP API Security Top 10 (2023) ruleset, as the document is linted with
 * (spectral-owasp.test.ts). Every rule applies except those set aside here, each with why.
 *
 * Warnings are not failures, and those that remain are true of the API: no 401 on the
 * operations that need no caller (sign-in, health, readiness, metrics, this document), no 429
 * on those outside the rate limiter, and free-text strings (names, messages) bounded by length
 * but not by a pattern.
 */
const base = owasp as RulesetDefinition & { rules: Record<string, RuleDefinition> };
const rateLimit: RuleDefinition = base.rules['owasp:api4:2023-rate-limit']!;
const credentialsInUrl: RuleDefinition = base.rules['owasp:api2:2023-no-credentials-in-url']!;

export const OWASP_RULESET: RulesetDefinition = {
  extends: [base],
  rules: {
    // Ids are integers by design (docs/api.md). Guessing one gains nothing: every route checks
    // who owns it; another user's monitor, notification or token answers 404 exactly as a
    // missing one does, and an agent its owner has not published is not found (docs/errors.md).
    'owasp:api1:2023-no-numeric-ids': 'off',
    // CORS headers are answered only to an allowed Origin (CORS_ORIGINS, docs/security.md) and
    // only when it asks, so no answer carries Access-Control-Allow-Origin unconditionally;
    // stating it on every response would be false.
    'owasp:api8:2023-define-cors-origin': 'off',
    // Operations outside /api/v1 (health, readiness, metrics, this document) sit in front of the
    // rate limiter on purpose, so that probes and scrapers are never refused: they carry
    // `x-rate-limited: false` and no X-RateLimit-* headers. Every other 2xx/4xx must.
    'owasp:api4:2023-rate-limit': {
      ...rateLimit,
      given: "$.paths[*][?(@ && @['x-rate-limited'] !== false)].responses[?(@property.match(/^(2|4)/))]",
    },
    // Two kinds of URL are their own credential, since whatever opens them cannot send a header:
    // - the one-time sign-in link (GET /api/v1/auth/link/{token}), like a password-reset link, is
    //   printed to a terminal and opened in a browser; it works once, for 15 minutes, and is
    //   stored only as a hash (docs/security.md);
    // - a badge (GET /badge/{token}/status.svg, uptime.svg) is loaded by an <img> in a README;
    //   it only reads one monitor's status, can be replaced or revoked by its owner, and is stored
    //   only as a hash (docs/status-pages.md).
    // Such an operation says so with `x-secret-in-path: true`; every other parameter is checked.
    'owasp:api2:2023-no-credentials-in-url': {
      ...credentialsInUrl,
      given: "$.paths[*][?(@ && @['x-secret-in-path'] !== true)]..parameters[?(@ && @.in && @.in.match(/query|path/))].name",
    },
  },
};
