import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { buildOpenApiDocument } from '../src/openapi/document';
import { OWASP_RULESET } from './support/owasp-ruleset';

type Finding = { rule: string | number; severity: number; at: string; message: string };

async function lint(document: unknown): Promise<Finding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(OWASP_RULESET);
  const results = await spectral.run(new Document(JSON.stringify(document), Json, 'openapi.json'));
  return results.map((r) => ({ rule: r.code, severity: r.severity, at: r.path.join('.'), message: r.message }));
}

const ERROR = 0;

describe("the OpenAPI document, linted with Spectral's OWASP API Top 10 ruleset", () => {
  it('has no errors', async () => {
    const findings = await lint(buildOpenApiDocument());
    expect(findings.filter((f) => f.severity === ERROR)).toEqual([]);
  });

  it('finds an unbounded field, and an API answer without rate-limit headers, in a route added later', async () => {
    const doc = buildOpenApiDocument();
    const op = { security: [], responses: { 200: { description: 'x', content: { 'application/json': { schema: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'integer' }, a: { type: 'array', items: { type: 'boolean' } } } } } } } } };
    doc.paths['/api/v1/later'] = { get: op };
    const errors = (await lint(doc)).filter((f) => f.severity === ERROR && f.at.startsWith('paths./api/v1/later'));
    expect([...new Set(errors.map((f) => f.rule))].sort()).toEqual([
      'owasp:api4:2023-array-limit',
      'owasp:api4:2023-integer-format',
      'owasp:api4:2023-integer-limit',
      'owasp:api4:2023-rate-limit',
      'owasp:api4:2023-string-limit',
    ]);
  });
});
