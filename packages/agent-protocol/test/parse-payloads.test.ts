import { fromWireCheck, parseCheckRequest, parseCheckResponse, parseHealthResponse, toWireCheck } from '../src';
import type { CheckConfig } from '@uptime/probe';

const check: CheckConfig = {
  type: 'http',
  url: 'https://example.com/',
  method: 'POST',
  headers: { 'x-a': '1' },
  body: '{}',
  timeout: 10,
  followRedirects: false,
  verifySsl: true,
  expectedStatus: [200, 204],
  expectedContent: 'ok',
  excludedContent: null,
  jsonPath: '$.status',
  expectedJsonValue: 'up',
  retryCount: 2,
};

describe('protocol payloads', () => {
  it('carries every field of a check configuration through the wire format', () => {
    const parsed = parseCheckRequest(JSON.parse(JSON.stringify({ request_id: 'abcdef123456', check: toWireCheck(check) })));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(fromWireCheck(parsed.value.check)).toEqual(check);
  });

  it('refuses a check whose headers frame or route the request, naming each', () => {
    const headers = { 'X-Ok': '1', HOST: 'metadata.google.internal', 'Transfer-Encoding': 'chunked', 'Proxy-Authorization': 'x' };
    const parsed = parseCheckRequest({ request_id: 'abcdef123456', check: { ...toWireCheck(check), headers } });
    expect(parsed).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^check\.headers: header HOST is not allowed/),
        expect.stringMatching(/^check\.headers: header Transfer-Encoding is not allowed/),
        expect.stringMatching(/^check\.headers: header Proxy-Authorization is not allowed/),
      ],
    });
  });

  it('lists every problem of a malformed request', () => {
    const parsed = parseCheckRequest({ request_id: 'x', check: { ...toWireCheck(check), url: 'ftp://x', timeout: 0, headers: { a: 1 } } });
    expect(parsed).toEqual({
      ok: false,
      problems: expect.arrayContaining([
        expect.stringMatching(/^request_id/),
        expect.stringMatching(/^check\.url/),
        expect.stringMatching(/^check\.timeout/),
        expect.stringMatching(/^check\.headers/),
      ]),
    });
    expect(parseCheckRequest([])).toMatchObject({ ok: false });
    expect(parseCheckRequest({ request_id: 'abcdef123456' })).toEqual({ ok: false, problems: ['check: must be an object'] });
  });

  it('reads answers, with agent ids as strings or numbers, and refuses a failure without a reason', () => {
    const result = { ok: true, status_code: 200, response_time: 12, error: null, checked_at: '2026-11-22T10:00:00.000Z', attempts: 1 };
    expect(parseCheckResponse({ request_id: 'r', agent_id: 7, location: 'x', version: '1', result })).toMatchObject({
      ok: true,
      value: { agent_id: '7' },
    });
    expect(
      parseCheckResponse({ request_id: 'r', agent_id: '7', location: 'x', version: '1', result: { ...result, ok: false } }),
    ).toMatchObject({ ok: false });
    expect(parseHealthResponse({ status: 'ok', agent_id: '7', location: 'x', version: '1' })).toMatchObject({ ok: true });
    expect(parseHealthResponse({ status: 'down', agent_id: '7', location: 'x', version: '1' })).toMatchObject({ ok: false });
  });

  it("reads a dns check's answer (protocol 3) within the bounds the service stores, and refuses one outside them", () => {
    const result = { ok: true, status_code: null, response_time: 3, error: null, checked_at: '2026-11-22T10:00:00.000Z', attempts: 1 };
    const answer = (dns: unknown) => parseCheckResponse({ request_id: 'r', agent_id: 7, location: 'x', version: '1', result: { ...result, dns } });
    expect(answer({ response_code: 'NOERROR', values: ['192.0.2.1'], min_ttl: 60 })).toMatchObject({
      ok: true,
      value: { result: { dns: { response_code: 'NOERROR', values: ['192.0.2.1'], min_ttl: 60 } } },
    });
    expect(answer({ response_code: null, values: [], min_ttl: null })).toMatchObject({ ok: true });
    expect(answer({ response_code: 'NOERROR', values: ['x'.repeat(256)], min_ttl: 60 })).toEqual({ ok: false, problems: [expect.stringContaining('result.dns.values')] });
    expect(answer({ response_code: 'no error', values: Array.from({ length: 51 }, () => 'v'), min_ttl: -1 })).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('result.dns.response_code'), expect.stringContaining('result.dns.values'), expect.stringContaining('result.dns.min_ttl')],
    });
    expect(answer('NOERROR')).toEqual({ ok: false, problems: ['result.dns: must be an object'] });
  });
});
