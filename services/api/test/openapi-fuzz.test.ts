import fc from 'fast-check';
import request from 'supertest';
import { ERROR_CODES } from '@uptime/errors';
import { OPERATIONS } from '../src/openapi/document';
import { ownedIdFor, useOwnedWorld } from './support/tenants';

/**
 * A seeded property-based fuzz of every operation of the OpenAPI document (docs/api.md): hostile
 * path parameters, query strings and bodies never get a 5xx, every answer is in its documented
 * content type, every JSON 4xx is the error envelope with a documented code (an HTML or SVG 4xx,
 * read by a browser or an <img>, is the page or image the document names), and no answer
 * carries a stack trace. Every answer is also checked
 * against the document (the harness's response inspector). FUZZ_RUNS sets the cases per
 * operation (default 10), FUZZ_SEED replays a run; the seed is printed when a property fails.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
jest.setTimeout(Math.max(60_000, RUNS * 5_000));

const owned = useOwnedWorld();

const nested = (depth: number, open: string, close: string): string => `${open.repeat(depth)}${close.repeat(depth)}`;

/** Path segments no route should choke on: bad escapes, NUL, a lone surrogate, huge and wrong numbers. */
const pathValue = (ownedId: number | undefined): fc.Arbitrary<string> =>
  fc.constantFrom(String(ownedId ?? 1), '%FF', '%C0%AF', '%E0%A4%A', '%ED%A0%80', '%00', '99999999999999999999', '-1', '0', '1e3', 'abc', '%2e%2e', 'github');

/** Query values, already URL-encoded. */
const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('%00', '%FF', '%ED%A0%80', '99999999999999999999', '-1', '1e400', '', 'true', 'NaN', '2026-13-45', 'a'.repeat(3000), '%5B%5D'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

/** A JSON value of hostile content (lone surrogates survive JSON.stringify as escapes). */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', 1e308, -1e308, 2 ** 53 + 1, 1e20, -1, 0, 1.5, true, null, [], {}, 'a'.repeat(5000)),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(1e20)), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 3 }),
);

const FIELDS = ['name', 'url', 'headers', 'settings', 'monitor_ids', 'agent_ids', 'action', 'check_interval', 'timeout', 'body', 'location', 'status', 'is_public', 'expected_status', 'tags', 'email', 'theme', 'timezone', 'expires_in_days'];

/** A raw JSON body: a plausible object with one hostile field, deep nesting, prototype keys or a wrong root type. */
const hostileBody: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({ field: fc.constantFrom(...FIELDS), value: hostileValue, extra: fc.dictionary(fc.constantFrom(...FIELDS), hostileValue, { maxKeys: 2 }) })
    .map(({ field, value, extra }) => JSON.stringify({ name: 'Fuzz', url: 'https://fuzz.example/', type: 'http', ...extra, [field]: value })),
  fc
    .record({ field: fc.constantFrom(...FIELDS), depth: fc.integer({ min: 33, max: 3000 }), array: fc.boolean() })
    .map(({ field, depth, array }) => `{"${field}":${array ? nested(depth, '[', ']') : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`}}`),
  fc
    .record({ field: fc.constantFrom(...FIELDS, ''), key: fc.constantFrom('__proto__', 'constructor', 'prototype') })
    .map(({ field, key }) => (field === '' ? `{"${key}":{"polluted":true}}` : `{"name":"Fuzz","${field}":{"${key}":{"polluted":true}}}`)),
  fc.constantFrom('[]', '"text"', '123', 'null', 'true', '{"a":1e999}', '{"name":"\\ud800"}', '{"name":"\\u0000"}'),
);

/** A V8 stack frame, raw or JSON-escaped: "\n    at fn (file.ts:1:2)", "node:internal/…". */
const STACK = /(\\n|\n)\s+at \S|[\w/.-]+\.[jt]s:\d+:\d+|node:internal\//;

const operations = OPERATIONS.map((op) => ({
  method: op.method,
  path: op.path,
  pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
  queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
  hasBody: op.method !== 'get',
  /**
   * The documented content type of an answer by status: a documented answer's own (HTML, SVG,
   * JSON), none for one without a body (304, a redirect), JSON for an error status.
   */
  mediaAt: (status: number): string | undefined => {
    const documented = op.responses[status];
    if (!documented) return 'application/json';
    return documented.schema ? (documented.contentType ?? 'application/json') : undefined;
  },
}));

const mediaOf = (res: request.Response): string => String(res.headers['content-type'] ?? '').split(';')[0]!.trim();

describe(`fuzz of every documented operation (seed ${SEED}, ${RUNS} cases each; FUZZ_SEED=${SEED} replays)`, () => {
  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_name, op) => {
    const arbitrary = fc.record({
      params: fc.tuple(...op.pathParams.map(() => pathValue(ownedIdFor(op.path, owned.world)))),
      query: fc.array(fc.tuple(fc.constantFrom(...op.queryParams, 'unknown', 'limit[]'), queryValue), { maxLength: op.queryParams.length > 0 ? 3 : 1 }),
      body: op.hasBody ? fc.option(hostileBody, { freq: 5 }) : fc.constant(null),
      asOwner: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ params, query, body, asOwner }) => {
        let i = 0;
        const path = op.path.replace(/\{\w+\}/g, () => params[i++]!);
        const qs = query.map(([k, v]) => `${k}=${v}`).join('&');
        const url = qs ? `${path}?${qs}` : path;
        let req = request(owned.h.app)[op.method](url).set('Authorization', asOwner ? owned.world.owner.auth : owned.world.other.auth);
        if (body !== null) req = req.set('Content-Type', 'application/json').send(body);
        const res = await req;
        const what = `${op.method.toUpperCase()} ${url} ${body ?? ''}`.slice(0, 400);
        // An SVG is buffered as bytes, not as text.
        const text = res.text ?? (Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '');
        if (res.status >= 500) throw new Error(`${what} → ${res.status} ${text.slice(0, 300)}`);
        if (STACK.test(text)) throw new Error(`${what} → a stack trace in the answer: ${text.slice(0, 400)}`);
        const media = mediaOf(res);
        const documented = op.mediaAt(res.status);
        if (documented !== undefined && media !== documented) throw new Error(`${what} → ${res.status} in ${media || 'no content type'}, documented as ${documented}: ${text.slice(0, 200)}`);
        // The error envelope is a JSON answer's; a browser's HTML page or an <img>'s SVG has its own.
        if (res.status >= 400 && media === 'application/json') {
          const code = (res.body as { error?: { code?: string } }).error?.code;
          if (!code || !(ERROR_CODES as string[]).includes(code)) throw new Error(`${what} → ${res.status} without a documented error code: ${text.slice(0, 200)}`);
          if (typeof (res.body as { meta?: { request_id?: string } }).meta?.request_id !== 'string') throw new Error(`${what} → no meta.request_id`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
