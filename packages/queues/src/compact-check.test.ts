import type { CheckConfig } from '@uptime/probe';
import { aCheckConfig, aDnsCheckConfig, aTcpCheckConfig } from '@uptime/testing';
import { compactCheck, expandCheck } from './compact-check';

const usual: CheckConfig = aCheckConfig('https://example.test/health', { timeout: 30 });

const unusual: CheckConfig = {
  type: 'http',
  url: 'https://example.test/api',
  method: 'POST',
  headers: { authorization: 'Bearer x', 'x-probe': '1' },
  body: '{"ping":true}',
  timeout: 5,
  followRedirects: false,
  verifySsl: false,
  expectedStatus: [200, 418],
  expectedContent: 'pong',
  excludedContent: 'error',
  jsonPath: '$.status',
  expectedJsonValue: 'ok',
  retryCount: 2,
};

describe('compact check configuration', () => {
  it('keeps only the URL and timeout of a check at the usual values, and restores the rest', () => {
    expect(compactCheck(usual)).toEqual({ url: usual.url, timeout: 30 });
    expect(expandCheck(compactCheck(usual))).toEqual(usual);
  });

  it('keeps every field that differs, so nothing is lost', () => {
    // The type http is left out too: a template without one is http's, as before other types.
    expect(compactCheck(unusual)).toEqual({ ...unusual, type: undefined });
    expect(expandCheck(compactCheck(unusual))).toEqual(unusual);
    // Falsy values that differ from the usual ones are kept too.
    const falsy: CheckConfig = { ...usual, method: 'HEAD', body: '', expectedContent: '', jsonPath: '', expectedJsonValue: '' };
    expect(expandCheck(compactCheck(falsy))).toEqual(falsy);
  });

  it('reads a template written whole, before compaction, as it was', () => {
    expect(expandCheck(unusual)).toEqual(unusual);
    expect(expandCheck(usual)).toEqual(usual);
  });

  it('makes a usual template less than a third of its JSON', () => {
    expect(JSON.stringify(compactCheck(usual)).length * 3).toBeLessThan(JSON.stringify(usual).length);
  });

  it('keeps the type of another type, with its own fields only, and reads a template without a type as http', () => {
    const tcp = aTcpCheckConfig('tls://mail.example.test:993', { timeout: 30 });
    expect(compactCheck(tcp)).toEqual({ type: 'tcp', url: 'tls://mail.example.test:993', timeout: 30 });
    expect(expandCheck(compactCheck(tcp))).toEqual(tcp);
    const sending = { ...tcp, tcpSend: 'a1 NOOP\r\n', expectedContent: 'OK', verifySsl: false };
    expect(expandCheck(compactCheck(sending))).toEqual(sending);
    expect(expandCheck({ url: 'https://example.test/health', timeout: 30 })).toEqual(usual);
  });

  it('keeps a dns template to its type, url and timeout at the usual values, and its list of expected values when set', () => {
    const dns = aDnsCheckConfig('dns://example.test', { timeout: 30 });
    expect(compactCheck(dns)).toEqual({ type: 'dns', url: 'dns://example.test', timeout: 30 });
    expect(expandCheck(compactCheck(dns))).toEqual(dns);
    const asking = { ...dns, dnsRecordType: 'MX', dnsResolver: '1.1.1.1', dnsProtocol: 'tcp', expectedDnsValues: ['10 mx.example.test'] };
    expect(compactCheck(asking)).toEqual({ type: 'dns', url: 'dns://example.test', timeout: 30, dnsRecordType: 'MX', dnsResolver: '1.1.1.1', dnsProtocol: 'tcp', expectedDnsValues: ['10 mx.example.test'] });
    expect(expandCheck(compactCheck(asking))).toEqual(asking);
  });
});
