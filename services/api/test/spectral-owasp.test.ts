import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startApiHarness, type ApiHarness } from './support/api-harness';
import { CAPABILITY_URL_PATHS, NOT_RATE_LIMITED_PATHS } from './support/owasp-exceptions.cjs';

/**
 * Spectral's CLI (`@stoplight/spectral-cli`), as anyone would run it on the document the app
 * serves: `spectral lint -r services/api/test/support/owasp-ruleset.mjs openapi.json`. The ruleset
 * is the OWASP package with this project's exceptions, each with its reason. Every document below
 * is a file, and all of them go through one run of the CLI: each run bundles the ruleset anew,
 * which takes seconds.
 */

type Finding = { rule: string; severity: number; at: string; message: string };
type OpenApiDocument = {
  paths: Record<string, Record<string, { description?: string; parameters?: unknown[]; responses: Record<string, unknown>; [k: string]: unknown }>>;
  components: { responses: Record<string, { headers?: Record<string, unknown> }> };
};
/** One result of `spectral lint -f json`. */
type SpectralResult = { code: string | number; severity: number; path: (string | number)[]; message: string; source?: string };

const ERROR = 0;
const ROOT = path.resolve(__dirname, '../../..');
const SPECTRAL = path.join(ROOT, 'node_modules/.bin/spectral');
const RULESET = path.join(__dirname, 'support/owasp-ruleset.mjs');

/** Lints each document (by name) in one run of the CLI, and returns each one's errors. */
async function lintErrors(documents: Record<string, unknown>): Promise<Record<string, Finding[]>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'spectral-owasp-'));
  try {
    const files = Object.keys(documents).map((name) => path.join(dir, `${name}.json`));
    await Promise.all(Object.values(documents).map((doc, i) => writeFile(files[i]!, JSON.stringify(doc))));
    const stdout = await new Promise<string>((resolve, reject) => {
      // Exit code 1: some document has an error, which the results say; anything else is a failure
      // of the CLI itself (a ruleset it cannot load, a file it cannot read).
      execFile(SPECTRAL, ['lint', '-r', RULESET, ...files, '-f', 'json', '-q'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, out, stderr) => {
        if (err && err.code !== 1) reject(new Error(`spectral lint failed (${String(err.code)}): ${stderr || out}`));
        else resolve(out);
      });
    });
    const results = JSON.parse(stdout) as SpectralResult[];
    const unknown = results.filter((r) => !files.includes(r.source ?? ''));
    if (unknown.length > 0) throw new Error(`results for no document linted: ${JSON.stringify(unknown)}`);
    return Object.fromEntries(
      Object.keys(documents).map((name, i) => [
        name,
        results
          .filter((r) => r.source === files[i] && r.severity === ERROR)
          .map((r) => ({ rule: String(r.code), severity: r.severity, at: r.path.join('.'), message: r.message })),
      ]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the served OpenAPI document, linted by Spectral's CLI with the OWASP API Top 10 ruleset", () => {
  let h: ApiHarness;
  let served: OpenApiDocument;
  /** Each document's errors, from one run of the CLI over the served document and its changes. */
  let errorsOf: Record<'served' | 'changed' | 'rateLimitHeaders', Finding[]>;
  let rateLimitResponse: string;
  beforeAll(async () => {
    h = await startApiHarness();
    const res = await request(h.app).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    served = res.body as OpenApiDocument;

    // A document with every change below: each finding is at the path of the change that causes it.
    const changed = structuredClone(served);
    // An operation that no longer declares its 429.
    delete changed.paths['/api/v1/monitors']!.get!.responses['429'];
    // A route added later, unbounded and without rate limiting.
    const unbounded = { type: 'object', properties: { s: { type: 'string' }, n: { type: 'integer' }, a: { type: 'array', items: { type: 'boolean' } } } };
    changed.paths['/api/v1/later'] = { get: { security: [], responses: { 200: { description: 'x', content: { 'application/json': { schema: unbounded } } } } } };
    // A credential in a URL: a new path's, and a query parameter of a capability URL.
    const secretParam = { name: 'password', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } };
    changed.paths['/api/v1/later/{password}'] = { get: { ...changed.paths['/api/v1/auth/providers']!.get!, parameters: [secretParam] } };
    const badge = changed.paths['/badge/{token}/status.svg']!.get!;
    badge.parameters = [...(badge.parameters ?? []), { name: 'access_token', in: 'query', schema: { type: 'string', maxLength: 64 } }];

    // The 429 that loses Retry-After and X-RateLimit-Limit.
    [rateLimitResponse] = Object.entries(served.components.responses).find(([n]) => n.split('.').includes('RATE_LIMIT_EXCEEDED'))!;
    const rateLimitHeaders = structuredClone(served);
    delete rateLimitHeaders.components.responses[rateLimitResponse]!.headers!['Retry-After'];
    delete rateLimitHeaders.components.responses[rateLimitResponse]!.headers!['X-RateLimit-Limit'];

    errorsOf = await lintErrors({ served, changed, rateLimitHeaders });
  }, 120_000);
  afterAll(() => h.close());

  it('has no errors', () => {
    expect(errorsOf.served).toEqual([]);
  });

  describe('finds what a change of the document breaks', () => {
    const at = (prefix: string): string[] => [...new Set(errorsOf.changed.filter((f) => f.at.startsWith(prefix)).map((f) => f.rule))].sort();

    it('an operation that no longer declares its 429', () => {
      expect(at('paths./api/v1/monitors.')).toEqual(['owasp:api4:2023-rate-limit-responses-429']);
    });

    it('an unbounded field, and an answer without rate limiting, in a route added later', () => {
      expect(at('paths./api/v1/later.')).toEqual([
        'owasp:api4:2023-array-limit',
        'owasp:api4:2023-integer-format',
        'owasp:api4:2023-integer-limit',
        'owasp:api4:2023-rate-limit',
        'owasp:api4:2023-rate-limit-responses-429',
        'owasp:api4:2023-string-limit',
      ]);
    });

    it('a credential in any URL but the token of the capability URLs', () => {
      const found = errorsOf.changed.filter((f) => f.rule === 'owasp:api2:2023-no-credentials-in-url').map((f) => f.at);
      expect(found.sort()).toEqual(['paths./api/v1/later/{password}.get.parameters.0.name', 'paths./badge/{token}/status.svg.get.parameters.1.name']);
    });

    it('nothing else', () => {
      const changedAt = ['paths./api/v1/monitors.', 'paths./api/v1/later', 'paths./badge/{token}/status.svg.'];
      expect(errorsOf.changed.filter((f) => !changedAt.some((prefix) => f.at.startsWith(prefix)))).toEqual([]);
    });
  });

  it('fails when the 429 loses Retry-After or the X-RateLimit-* headers', () => {
    const rules = new Set(errorsOf.rateLimitHeaders.filter((f) => f.at.startsWith(`components.responses.${rateLimitResponse}.`)).map((f) => f.rule));
    expect([...rules].sort()).toEqual(['owasp:api4:2023-rate-limit', 'owasp:api4:2023-rate-limit-retry-after']);
  });

  it('says, for each capability URL, what its token grants and how to revoke it', () => {
    const withToken = Object.entries(served.paths)
      .filter(([, ops]) => Object.values(ops).some((op) => (op.parameters as { name: string; in: string }[] | undefined)?.some((p) => p.in === 'path' && p.name === 'token')))
      .map(([path]) => path);
    expect(withToken.sort()).toEqual([...CAPABILITY_URL_PATHS].sort());
    for (const path of CAPABILITY_URL_PATHS) {
      const op = served.paths[path]!.get!;
      expect(op['x-capability-url']).toBe(true);
      expect(op.description).toMatch(/\*\*Capability URL\*\*: .* It grants .+\. To revoke it: .+\.$/s);
    }
  });

  it('leaves only the probes without a rate limit, and says why in their description', () => {
    const unlimited = Object.entries(served.paths).filter(([, ops]) => Object.values(ops).some((op) => op['x-rate-limited'] === false));
    expect(unlimited.map(([path]) => path).sort()).toEqual([...NOT_RATE_LIMITED_PATHS].sort());
    for (const [, ops] of unlimited) expect(ops.get!.description).toMatch(/Not rate limited, on purpose: load balancers and orchestrators probe it/);
    // The document itself is limited, and /metrics is not served on this port at all.
    expect(served.paths['/api/v1/openapi.json']!.get!.responses['429']).toBeDefined();
    expect(served.paths['/metrics']).toBeUndefined();
  });
});
