import owasp from '@stoplight/spectral-owasp-ruleset';
import exceptions from './owasp-exceptions.cjs';

/**
 * Spectral's OWASP API Security Top 10 (2023) ruleset, from the `@stoplight/spectral-owasp-ruleset`
 * package, as the served document is linted with: spectral-owasp.test.ts runs
 * `spectral lint -r services/api/test/support/owasp-ruleset.mjs <document>`, and so can anyone.
 * Every rule applies except those set aside here, each with why; an exception names its paths
 * (owasp-exceptions.cjs, each with its reason), so that a route added later meets the whole rule.
 *
 * JavaScript that imports the package, not YAML or JSON: the CLI resolves a YAML ruleset's
 * `extends: '@stoplight/spectral-owasp-ruleset'` by fetching the package from a CDN, which this
 * project's machines cannot reach; an import is read from node_modules.
 *
 * Warnings are not failures, and those that remain are true of the API: no 401 on the
 * operations that need no caller (sign-in, the probes, this document, public pages), and
 * free-text strings (names, messages) bounded by length but not by a pattern.
 */
const { ANONYMOUS_WRITE_PATHS, CAPABILITY_URL_PATHS, CAPABILITY_PARAMETER, NOT_RATE_LIMITED_PATHS } = exceptions;
const rule = (name) => owasp.rules[name];

/**
 * The Path Item Objects of `$.paths` whose path is in (or not in) a list. Their operations are
 * then named one level down (`[*]`), not by a deep scan (`..`), which Spectral evaluates several
 * times slower behind a filter.
 */
const pathsIn = (paths) => `$.paths[?(${paths.map((p) => `@property === '${p}'`).join(' || ')})]`;
const pathsNotIn = (paths) => `$.paths[?(${paths.map((p) => `@property !== '${p}'`).join(' && ')})]`;
/** A query or path parameter, at the path's level or an operation's. */
/** A rule whose check looks at the whole document, told to leave `paths` out of it. */
function withoutPaths(name, paths) {
  const original = rule(name);
  return {
    ...original,
    then: original.then.map((then) => ({
      ...then,
      function: (document, options, context) =>
        then.function({ ...document, paths: Object.fromEntries(Object.entries(document.paths ?? {}).filter(([p]) => !paths.includes(p))) }, options, context),
    })),
  };
}
const inUrl = (paths, filter) => [`${paths}.parameters[?(${filter})].name`, `${paths}[*].parameters[?(${filter})].name`];

export default {
  extends: [owasp],
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
    // Every write needs a caller but a visitor's subscribing to a public page and leaving it.
    'owasp:api2:2023-write-restricted': withoutPaths('owasp:api2:2023-write-restricted', ANONYMOUS_WRITE_PATHS),
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
