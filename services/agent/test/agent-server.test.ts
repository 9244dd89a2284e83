import { randomUUID } from 'node:crypto';
import {
  requestAgentCheck,
  requestAgentHealth,
  signedHeaders,
  signRequest,
  toWireCheck,
  type AgentCheckRequest,
} from '@uptime/agent-protocol';
import { createLogger } from '@uptime/logger';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { aCheckConfig, aDnsCheckConfig, aTcpCheckConfig, answer, startFakeDnsServer, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import { startAgent, type RunningAgent } from '../src/agent-server';
import { AGENT_VERSION } from '../src/version';

const SECRET = 'agent-test-secret-0123456789abcdef';
const logger = createLogger({ level: 'silent', service: 'agent-test' });


describe('reference agent', () => {
  let agent: RunningAgent;
  let guarded: RunningAgent;
  let target: FakeHttpServer;
  beforeAll(async () => {
    target = await startFakeHttpServer(answer(200, 'all good'));
    agent = await startAgent({
      agentId: '7',
      secret: SECRET,
      location: 'eu-test',
      allowPrivateTargets: true,
      logger,
      port: 0,
      host: '127.0.0.1',
    });
    guarded = await startAgent({
      agentId: '8',
      secret: SECRET,
      location: 'us-test',
      allowPrivateTargets: false,
      logger,
      port: 0,
      host: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await agent.close({ graceMs: 0 });
    await guarded.close({ graceMs: 0 });
    await target.close();
  });

  const endpoint = () => ({ id: 7, url: agent.url, secret: SECRET });
  const options = { allowPrivateTargets: true, timeoutMs: 5000 };
  const requestFor = (url: string): AgentCheckRequest => ({ request_id: randomUUID(), monitor_id: 1, check: toWireCheck(aCheckConfig(url)) });

  /** Sends a raw signed POST /v1/check, headers overridable. */
  async function post(
    body: string,
    headers: Record<string, string> = signedHeaders('7', SECRET, body),
  ): Promise<{ status: number; json: { error?: { code: string; message: string } } }> {
    const res = await fetch(`${agent.url}/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.status, json: (await res.json()) as { error?: { code: string; message: string } } };
  }

  it('runs a check with the probe and answers a signed result for the request', async () => {
    const request = requestFor(`${target.url}/health`);
    const call = await requestAgentCheck(endpoint(), request, options);
    expect(call).toMatchObject({
      answered: true,
      value: {
        request_id: request.request_id,
        agent_id: '7',
        location: 'eu-test',
        version: AGENT_VERSION,
        result: { ok: true, status_code: 200, attempts: 1 },
      },
    });
    expect(target.requests.at(-1)).toMatchObject({ method: 'GET', url: '/health' });
  });

  it('reports a failing target as a failed check, not as an agent error', async () => {
    target.respond(answer(503, 'down'));
    try {
      const call = await requestAgentCheck(endpoint(), requestFor(target.url), options);
      expect(call).toMatchObject({
        answered: true,
        value: { result: { ok: false, status_code: 503, error: expect.stringContaining('503') } },
      });
    } finally {
      target.respond(answer(200, 'all good'));
    }
  });

  it('runs a tcp check (protocol 2: check.type) against a listener, judging its banner', async () => {
    const listener = createNetServer((socket) => socket.end('220 mail.local ESMTP\r\n'));
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    try {
      const url = `tcp://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      const check = toWireCheck(aTcpCheckConfig(url, { expectedContent: '220 ' }));
      expect(check).toMatchObject({ type: 'tcp', url, tcp_send: null });
      const call = await requestAgentCheck(endpoint(), { request_id: randomUUID(), monitor_id: 1, check }, options);
      expect(call).toMatchObject({ answered: true, value: { result: { ok: true, status_code: null, error: null } } });
      const refused = await requestAgentCheck(endpoint(), { request_id: randomUUID(), check: toWireCheck(aTcpCheckConfig(url, { expectedContent: '250 ' })) }, options);
      expect(refused).toMatchObject({ answered: true, value: { result: { ok: false, error: 'Expected content not found: "250 "' } } });
    } finally {
      await new Promise((done) => listener.close(done));
    }
  });

  it('runs a dns check (protocol 3: check.type dns) against a resolver of ours, and refuses its private resolver when guarded', async () => {
    const dns = await startFakeDnsServer();
    try {
      dns.set('example.test', 'MX', { records: [{ type: 'MX', name: 'example.test', ttl: 60, data: { preference: 10, exchange: 'mx.example.test' } }] });
      const check = toWireCheck(aDnsCheckConfig('dns://example.test', { dnsRecordType: 'MX', dnsResolver: dns.resolver, expectedDnsValues: ['10 mx.example.test'] }));
      expect(check).toMatchObject({ type: 'dns', url: 'dns://example.test', dns_record_type: 'MX', dns_protocol: 'udp' });
      const up = await requestAgentCheck(endpoint(), { request_id: randomUUID(), monitor_id: 1, check }, options);
      expect(up).toMatchObject({
        answered: true,
        value: { result: { ok: true, status_code: null, error: null, dns: { response_code: 'NOERROR', values: ['10 mx.example.test'], min_ttl: 60 } } },
      });
      const missing = toWireCheck(aDnsCheckConfig('dns://example.test', { dnsRecordType: 'MX', dnsResolver: dns.resolver, expectedDnsValues: ['20 mx2.example.test'] }));
      const down = await requestAgentCheck(endpoint(), { request_id: randomUUID(), check: missing }, options);
      expect(down).toMatchObject({ answered: true, value: { result: { ok: false, error: 'Expected DNS value not found: "20 mx2.example.test"' } } });
      const refused = await requestAgentCheck({ id: 8, url: guarded.url, secret: SECRET }, { request_id: randomUUID(), check }, options);
      expect(refused).toMatchObject({ answered: true, value: { result: { ok: false, error: expect.stringContaining('Resolver address 127.0.0.1 is not allowed') } } });
      expect(dns.queries).toHaveLength(2);
      // A field of the dns check out of its rules is refused by name, as the API refuses it.
      const bad = await post(JSON.stringify({ request_id: randomUUID(), check: { ...check, dns_record_type: 'ANY' } }));
      expect(bad).toMatchObject({ status: 400, json: { error: { code: 'INVALID_REQUEST', message: expect.stringContaining('check.dns_record_type') } } });
    } finally {
      await dns.close();
    }
  });

  it('refuses a check of a type it does not know, or a field of another type, with 400 naming it', async () => {
    const unknown = await post(JSON.stringify({ request_id: randomUUID(), check: { type: 'smtp', url: 'smtp://x:25', timeout: 5 } }));
    expect(unknown).toMatchObject({ status: 400, json: { error: { code: 'INVALID_REQUEST', message: expect.stringContaining('check.type') } } });
    // A tcp url in a check without a type is an http check's, as an agent of protocol 1 read it: refused, naming the url.
    const untyped = await post(JSON.stringify({ request_id: randomUUID(), check: { ...toWireCheck(aTcpCheckConfig('tcp://example.com:22')), type: undefined } }));
    expect(untyped).toMatchObject({ status: 400, json: { error: { code: 'INVALID_REQUEST', message: expect.stringContaining('check.url') } } });
  });

  it('refuses a wrong signature with 401 and runs nothing', async () => {
    const before = target.requests.length;
    const body = JSON.stringify(requestFor(target.url));
    const headers = signedHeaders('7', 'not-the-agent-secret-at-all', body);
    expect(await post(body, headers)).toEqual({ status: 401, json: { error: { code: 'INVALID_SIGNATURE', message: expect.any(String) } } });
    // Signed for another body: a tampered request.
    expect((await post(body.replace('"GET"', '"POST"'), signedHeaders('7', SECRET, body))).json.error?.code).toBe('INVALID_SIGNATURE');
    expect(target.requests.length).toBe(before);
  });

  it('refuses a timestamp more than 300 s old (or ahead) with 401 CLOCK_SKEW', async () => {
    const body = JSON.stringify(requestFor(target.url));
    const old = Math.floor(Date.now() / 1000) - 301;
    expect(
      await post(body, { 'x-agent-id': '7', 'x-timestamp': String(old), 'x-signature': signRequest(SECRET, old, body) }),
    ).toMatchObject({ status: 401, json: { error: { code: 'CLOCK_SKEW' } } });
    const ahead = Math.floor(Date.now() / 1000) + 400;
    expect(
      await post(body, { 'x-agent-id': '7', 'x-timestamp': String(ahead), 'x-signature': signRequest(SECRET, ahead, body) }),
    ).toMatchObject({ status: 401, json: { error: { code: 'CLOCK_SKEW' } } });
  });

  it('refuses a replayed request, even re-signed with a fresh timestamp', async () => {
    const body = JSON.stringify(requestFor(target.url));
    const headers = signedHeaders('7', SECRET, body);
    expect((await post(body, headers)).status).toBe(200);
    const before = target.requests.length;
    expect(await post(body, headers)).toMatchObject({ status: 409, json: { error: { code: 'REPLAYED_REQUEST' } } });
    const later = String(Math.floor(Date.now() / 1000) + 5);
    expect(await post(body, { 'x-agent-id': '7', 'x-timestamp': later, 'x-signature': signRequest(SECRET, later, body) })).toMatchObject({
      status: 409,
    });
    expect(target.requests.length).toBe(before);
  });

  it('refuses requests naming another agent or missing the signing headers', async () => {
    const body = JSON.stringify(requestFor(target.url));
    expect((await post(body, signedHeaders('8', SECRET, body))).json.error?.code).toBe('UNKNOWN_AGENT');
    expect((await post(body, {})).json.error?.code).toBe('MISSING_SIGNATURE');
  });

  it('answers a malformed but signed request with 400', async () => {
    const body = JSON.stringify({ request_id: randomUUID(), check: { url: 'gopher://x' } });
    expect(await post(body)).toMatchObject({ status: 400, json: { error: { code: 'INVALID_REQUEST' } } });
  });

  it('answers a signed health request with its id, location and version', async () => {
    const call = await requestAgentHealth(endpoint(), options);
    expect(call).toEqual({
      answered: true,
      value: { status: 'ok', agent_id: '7', location: 'eu-test', version: AGENT_VERSION },
      latencyMs: expect.any(Number),
    });
    const res = await fetch(`${agent.url}/v1/health`);
    expect(res.status).toBe(401);
    expect(await requestAgentHealth({ ...endpoint(), secret: 'a-wrong-secret-for-this-agent' }, options)).toMatchObject({
      answered: false,
      error: expect.stringContaining('401'),
    });
  });

  it('keeps the SSRF guard: a loopback target fails the check unless private targets are allowed', async () => {
    const call = await requestAgentCheck({ id: 8, url: guarded.url, secret: SECRET }, requestFor(target.url), options);
    expect(call).toMatchObject({
      answered: true,
      value: { location: 'us-test', result: { ok: false, status_code: null, error: expect.stringMatching(/not allowed/) } },
    });
  });

  it('answers unknown routes 404 and wrong methods 405', async () => {
    expect((await fetch(`${agent.url}/v2/check`)).status).toBe(404);
    expect((await fetch(`${agent.url}/v1/check`)).status).toBe(405);
  });
});
