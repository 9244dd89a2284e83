import request from 'supertest';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { startApiHarness, type ApiHarness } from './support/api-harness';
import { CAPABILITY_URL_PATHS, NOT_RATE_LIMITED_PATHS, OWASP_RULESET } from './support/owasp-ruleset';

/**
 * Spectral's engine (`@stoplight/spectral-core`) with the OWASP ruleset package, in process, rather
 * than `@stoplight/spectral-cli`: the CLI runs the same engine on the same rules, but it resolves a
 * ruleset's `extends: "@stoplight/spectral-owasp-ruleset"` by fetching the package from a CDN
 * (which this project's machines cannot reach), and it installs a telemetry package with a
 * postinstall script. In process, each case below lints a variation of the document without a
 * temporary file and a child process each.
 */

type Finding = { rule: string; severity: number; at: string; message: string };
type OpenApiDocument = {
  paths: Record<string, Record<string, { description?: string; parameters?: unknown[]; responses: Record<string, unknown>; [k: string]: unknown }>>;
  components: { responses: Record<string, { headers?: Record<string, unknown> }> };
};

const ERROR = 0;

async function lint(document: unknown): Promise<Finding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(OWASP_RULESET);
  const results = await spectral.run(new Document(JSON.stringify(document), Json, 'openapi.json'));
  return results.map((r) => ({ rule: String(r.code), severity: r.severity, at: r.path.join('.'), message: r.message }));
}
const errorsOf = async (document: unknown): Promise<Finding[]> => (await lint(document)).filter((f) => f.severity === ERROR);

describe("the served OpenAPI document, linted with Spectral's OWASP API Top 10 ruleset", () => {
  let h: ApiHarness;
  let served: OpenApiDocument;
  const copy = (): OpenApiDocument => structuredClone(served);
  beforeAll(async () => {
    h = await startApiHarness();
    const res = await request(h.app).get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    served = res.body as OpenApiDocument;
  });
  afterAll(() => h.close());

  it('has no errors', async () => {
    expect(await errorsOf(served)).toEqual([]);
  });

  describe('finds what a change of the document breaks', () => {
    // One lint of a document with every change below (a lint takes seconds): each finding is at
    // the path of the change that causes it.
    let errors: Finding[];
    const at = (prefix: string): string[] => [...new Set(errors.filter((f) => f.at.startsWith(prefix)).map((f) => f.rule))].sort();
    beforeAll(async () => {
      const doc = copy();
      // An operation that no longer declares its 429.
      delete doc.paths['/api/v1/monitors']!.get!.responses['429'];
      // A route added later, unbounded and without rate limiting.
      const unbounded = { type: 'object', properties: { s: { type: 'string' }, n: { type: 'integer' }, a: { type: 'array', items: { type: 'boolean' } } } };
      doc.paths['/api/v1/later'] = { get: { security: [], responses: { 200: { description: 'x', content: { 'application/json': { schema: unbounded } } } } } };
      // A credential in a URL: a new path's, and a query parameter of a capability URL.
      const secretParam = { name: 'password', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } };
      doc.paths['/api/v1/later/{password}'] = { get: { ...doc.paths['/api/v1/auth/providers']!.get!, parameters: [secretParam] } };
      const badge = doc.paths['/badge/{token}/status.svg']!.get!;
      badge.parameters = [...(badge.parameters ?? []), { name: 'access_token', in: 'query', schema: { type: 'string', maxLength: 64 } }];
      errors = await errorsOf(doc);
    });

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
      const found = errors.filter((f) => f.rule === 'owasp:api2:2023-no-credentials-in-url').map((f) => f.at);
      expect(found.sort()).toEqual(['paths./api/v1/later/{password}.get.parameters.0.name', 'paths./badge/{token}/status.svg.get.parameters.1.name']);
    });

    it('nothing else', () => {
      const changed = ['paths./api/v1/monitors.', 'paths./api/v1/later', 'paths./badge/{token}/status.svg.'];
      expect(errors.filter((f) => !changed.some((prefix) => f.at.startsWith(prefix)))).toEqual([]);
    });
  });

  it('fails when the 429 loses Retry-After or the X-RateLimit-* headers', async () => {
    const [name] = Object.entries(served.components.responses).find(([n]) => n.split('.').includes('RATE_LIMIT_EXCEEDED'))!;
    const doc = copy();
    delete doc.components.responses[name]!.headers!['Retry-After'];
    delete doc.components.responses[name]!.headers!['X-RateLimit-Limit'];
    const rules = new Set((await errorsOf(doc)).filter((f) => f.at.startsWith(`components.responses.${name}.`)).map((f) => f.rule));
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
