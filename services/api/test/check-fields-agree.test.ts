import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import fc from 'fast-check';
import { parseCheckRequest, toWireCheck } from '@uptime/agent-protocol';
import { MONITOR_TYPE_FIELDS, PROBED_TYPES, TYPE_CHECK_FIELDS, fieldProblems, type FieldSpec, type ProbedType } from '@uptime/probe';
import { aCheckConfig, aDnsCheckConfig, aPingCheckConfig, aTcpCheckConfig } from '@uptime/testing';
import { MonitorFieldsDto } from '../src/monitors/monitor-fields.dto';

/** A check of each type every rule accepts, into which one field's value is put. */
const VALID: Record<ProbedType, Record<string, unknown>> = {
  http: toWireCheck(aCheckConfig('https://example.com/health', { method: 'POST', body: 'x', jsonPath: '$.a', expectedStatus: [200] })),
  tcp: toWireCheck(aTcpCheckConfig('tls://example.com:993', { tcpSend: 'a1 NOOP\r\n', expectedContent: 'OK' })),
  dns: toWireCheck(aDnsCheckConfig('dns://example.com', { dnsRecordType: 'MX', dnsResolver: '1.1.1.1:53', expectedDnsValues: ['10 mx.example.com'] })),
  ping: toWireCheck(aPingCheckConfig('ping://example.com', { timeout: 5, pingCount: 5 })),
};
const specOf = (type: ProbedType, field: string): FieldSpec => (MONITOR_TYPE_FIELDS[type] as Readonly<Record<string, FieldSpec>>)[field]!;

/** Strings around a length bound: ASCII, and characters outside the BMP (two UTF-16 units, one character). */
const around = (n: number): fc.Arbitrary<string> =>
  fc.constantFrom(...[n - 1, n, n + 1].filter((k) => k >= 0).flatMap((k) => ['a'.repeat(k), '😀'.repeat(k), `$${'b'.repeat(Math.max(0, k - 1))}`]));

/** Values near each rule of the field, and now and then anything JSON holds. */
function valuesFor(spec: FieldSpec): fc.Arbitrary<unknown> {
  const t = spec.type;
  const near = ((): fc.Arbitrary<unknown> => {
    switch (t.kind) {
      case 'url':
        if (t.scheme === 'dns') {
          return fc.oneof(
            fc.tuple(fc.constantFrom('dns', 'DNS', 'tcp'), fc.domain()).map(([s, h]) => `${s}://${h}`),
            fc.constantFrom('dns://example.com.', 'dns://_sip._tcp.example.com', 'dns://a..b', 'dns://-a.com', 'dns://', 'dns://a b', 'dns://example.com:53'),
            around(63).map((s) => `dns://${s}.example.com`),
          );
        }
        if (t.scheme === 'tcp') {
          return fc.oneof(
            fc.tuple(fc.constantFrom('tcp', 'tls', 'TLS', 'udp'), fc.domain(), fc.integer({ min: -1, max: 65536 })).map(([s, h, p]) => `${s}://${h}:${p}`),
            fc.constantFrom('tcp://example.com', 'tcp://[::1]:22', 'tcp://127.1:5432', 'tls://a@example.com:1', 'tcp://example.com:22/x', 'https://example.com/'),
          );
        }
        if (t.scheme === 'ping') {
          return fc.oneof(
            fc.tuple(fc.constantFrom('ping', 'PING', 'icmp'), fc.domain()).map(([s, h]) => `${s}://${h}`),
            fc.constantFrom('ping://[::1]', 'ping://::1', 'ping://127.1', 'ping://example.com:7', 'ping://a@example.com', 'ping://example.com/x', 'ping://', 'https://example.com/'),
          );
        }
        return fc.oneof(
          fc.webUrl(),
          fc.constantFrom('ftp://example.com/', 'http:example.com', ' https://example.com', 'https://', 'HTTPS://EXAMPLE.COM/x', 'http://[::1]:80/'),
          around(t.maxLength - 'https://example.com/'.length).map((s) => `https://example.com/${s}`),
        );
      case 'choice':
        return fc.constantFrom(...t.values, ...t.values.map((v) => v.toLowerCase()), 'TRACE', '', 'get ');
      case 'headers':
        return fc.oneof(
          fc.dictionary(fc.constantFrom('X-A', 'Accept', 'Host', 'proxy-x', 'bad name', 'é', 'TE'), fc.oneof(fc.string(), fc.constant('a\r\nb'), fc.integer())),
          fc.integer({ min: 49, max: 51 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-${i}`, 'v']))),
          fc.constantFrom({ 'x-a': 'v'.repeat(4096) }, { 'x-a': 'v'.repeat(4097) }, { ['n'.repeat(100)]: 'v' }, { ['n'.repeat(101)]: 'v' }),
        );
      case 'text':
        return fc.oneof(around(t.minLength), around(t.maxLength), fc.string(), fc.constantFrom('$.a', 'a.b', '$'));
      case 'integer':
        return fc.oneof(fc.integer({ min: t.min - 2, max: t.max + 2 }), fc.constantFrom(t.min + 0.5, String(t.min), Number.NaN, -0));
      case 'boolean':
        return fc.constantFrom(true, false, 'true', 0, 1);
      case 'strings':
        return fc.oneof(
          fc.array(fc.oneof(around(t.minLength), around(t.maxLength), fc.string()), { maxLength: 3 }),
          fc.integer({ min: t.maxItems - 1, max: t.maxItems + 1 }).map((n) => Array.from({ length: n }, () => 'v')),
          fc.constantFrom([1], [null], 'v'),
        );
      case 'hostPort':
        return fc.oneof(
          fc.tuple(fc.domain(), fc.integer({ min: -1, max: 65536 })).map(([h, p]) => `${h}:${p}`),
          fc.constantFrom('1.1.1.1', '[::1]:53', '::1', '2001:db8::1', '[::1]', 'host:', ':53', 'a b', 'a/b', 'u@host', '127.1:5353'),
          around(t.maxLength),
        );
      case 'integers':
        return fc.oneof(
          fc.array(fc.integer({ min: t.min - 1, max: t.max + 1 }), { maxLength: 3 }),
          fc.integer({ min: t.maxItems - 1, max: t.maxItems + 1 }).map((n) => Array.from({ length: n }, () => t.min)),
          fc.constantFrom([t.min + 0.5], ['200'], [null]),
        );
    }
  })();
  return fc.oneof({ arbitrary: near, weight: 8 }, { arbitrary: fc.constant(null), weight: 1 }, { arbitrary: fc.jsonValue(), weight: 1 });
}

/** What the API would store: the DTO's transforms (the method is upper-cased) applied. */
const asStored = (spec: FieldSpec, value: unknown): unknown =>
  spec.type.kind === 'choice' && spec.type.upperCase && typeof value === 'string' ? value.toUpperCase() : value;

const dtoAccepts = (wire: string, value: unknown): boolean =>
  validateSync(plainToInstance(MonitorFieldsDto, { [wire]: value }), { whitelist: true, forbidNonWhitelisted: true }).length === 0;

const agentAccepts = (type: ProbedType, wire: string, value: unknown): boolean =>
  parseCheckRequest({ request_id: 'agree-0001', check: { ...VALID[type], [wire]: value } }).ok;

/** Every field of every type. */
const CASES = PROBED_TYPES.flatMap((type) => TYPE_CHECK_FIELDS[type].map((field) => [type, field] as const));

describe('a check field, as the API and the agent protocol read it', () => {
  it.each(PROBED_TYPES)('starts from a %s check both accept', (type) => {
    expect(agentAccepts(type, 'url', VALID[type].url)).toBe(true);
    for (const field of TYPE_CHECK_FIELDS[type]) expect(dtoAccepts(specOf(type, field).wire, VALID[type][specOf(type, field).wire])).toBe(true);
  });

  // The DTO takes any type's url; that it is its type's is the next rule (monitor-type.ts), the type's own url rule.
  it.each(CASES)('%s %s: the DTO accepts a value exactly when an agent accepts it as stored', (type, field) => {
    const spec = specOf(type, field);
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(valuesFor(spec), (value) => {
        const dto = dtoAccepts(spec.wire, value) && (spec.wire !== 'url' || fieldProblems(spec, value).length === 0);
        expect({ value, agent: agentAccepts(type, spec.wire, asStored(spec, value)) }).toEqual({ value, agent: dto });
        if (dto) accepted++;
        else refused++;
      }),
      { numRuns: 300 },
    );
    // Both sides of every rule were tried.
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });
});
