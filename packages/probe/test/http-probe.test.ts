import { runProbe, runProbeWithPolicy, USER_AGENT } from '../src';
import type { ProbeOptions } from '../src/check-config';
import { aCheckConfig } from './support/check-config-builder';
import { endlessStream, targetRoutes } from './support/target-routes';
import { selfSignedCertificate, startTestServer, unusedPort, type TestServer } from './support/test-servers';

// Every target here is a loopback server, so the SSRF guard is lifted (it has its own tests).
const local: ProbeOptions = { allowPrivateTargets: true };

let site: TestServer;
let tlsSite: TestServer;

beforeAll(async () => {
  site = await startTestServer(targetRoutes);
  tlsSite = await startTestServer(targetRoutes, { tls: selfSignedCertificate() });
});

afterAll(async () => {
  await Promise.all([site.close(), tlsSite.close()]);
});

/** Requests the test server received for one path (query ignored). */
function requestsTo(server: TestServer, path: string) {
  return server.requests.filter((r) => r.url.split('?')[0] === path);
}

describe('result shape', () => {
  it('reports a passing check with status, integer response time, start time and one attempt', async () => {
    const before = Date.now();
    const result = await runProbe(aCheckConfig(`${site.url}/text`), local);
    expect(result).toEqual({ ok: true, statusCode: 200, responseTime: expect.any(Number), error: null, checkedAt: expect.any(Date), attempts: 1, timings: expect.any(Object), certificateExpiresAt: null });
    expect(Number.isInteger(result.responseTime)).toBe(true);
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    expect(result.checkedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(result.checkedAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('reports connection refused as a failed check without response time', async () => {
    const port = await unusedPort();
    const result = await runProbe(aCheckConfig(`http://127.0.0.1:${port}/`), local);
    expect(result).toMatchObject({ ok: false, statusCode: null, responseTime: null, error: 'Connection refused', attempts: 1 });
  });
});

describe('method, headers and body', () => {
  it('sends its User-Agent and the configured headers', async () => {
    await runProbe(aCheckConfig(`${site.url}/echo?ua`, { headers: { 'X-Api-Key': 'secret-1', Accept: 'application/json' } }), local);
    const [sent] = requestsTo(site, '/echo').filter((r) => r.url.endsWith('?ua'));
    expect(sent.headers['user-agent']).toBe(USER_AGENT);
    expect(sent.headers['x-api-key']).toBe('secret-1');
    expect(sent.headers.accept).toBe('application/json');
  });

  it('lets a configured User-Agent (any letter case) replace its own', async () => {
    await runProbe(aCheckConfig(`${site.url}/echo?custom-ua`, { headers: { 'User-Agent': 'custom-agent/2' } }), local);
    const [sent] = requestsTo(site, '/echo').filter((r) => r.url.endsWith('?custom-ua'));
    expect(sent.headers['user-agent']).toBe('custom-agent/2');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('sends %s with the configured body', async (method) => {
    const body = JSON.stringify({ ping: method });
    const result = await runProbe(
      aCheckConfig(`${site.url}/echo?${method}`, { method, body, headers: { 'content-type': 'application/json' }, jsonPath: '$.body', expectedJsonValue: body }),
      local,
    );
    expect(result.error).toBeNull();
    const [sent] = requestsTo(site, '/echo').filter((r) => r.url.endsWith(`?${method}`));
    expect(sent.method).toBe(method);
    expect(sent.body).toBe(body);
    expect(sent.headers['content-type']).toBe('application/json');
  });

  it('accepts a lower-case method and sends an empty body when none is configured', async () => {
    await runProbe(aCheckConfig(`${site.url}/echo?post-empty`, { method: 'post' }), local);
    const [sent] = requestsTo(site, '/echo').filter((r) => r.url.endsWith('?post-empty'));
    expect(sent.method).toBe('POST');
    expect(sent.body).toBe('');
    expect(sent.headers['content-length']).toBe('0');
  });

  it('does not send a body with GET', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/echo?get-body`, { body: 'ignored' }), local);
    expect(result.ok).toBe(true);
    const [sent] = requestsTo(site, '/echo').filter((r) => r.url.endsWith('?get-body'));
    expect(sent.method).toBe('GET');
    expect(sent.body).toBe('');
  });

  it('checks with HEAD (no body to read)', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/text?head`, { method: 'HEAD' }), local);
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(requestsTo(site, '/text').some((r) => r.method === 'HEAD')).toBe(true);
  });

  it('turns a header value that cannot be sent into a failed check naming the problem', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/text`, { headers: { 'x-bad': 'line\nbreak' } }), local);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Invalid request: /);
  });
});

describe('timeout', () => {
  it('fails a server that never answers after the configured seconds', async () => {
    const started = Date.now();
    const result = await runProbe(aCheckConfig(`${site.url}/stall`, { timeout: 0.5 }), local);
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, statusCode: null, responseTime: null, error: 'Timeout after 0.5s', attempts: 1 });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(3000);
  });

  it('also bounds the body read, keeping the status that arrived', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/stall-body`, { timeout: 0.5 }), local);
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: 'Timeout after 0.5s' });
    expect(result.responseTime).toBeGreaterThanOrEqual(450);
  });
});

describe('redirects', () => {
  it('follows redirects when followRedirects is true and judges the final response', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/redirect?to=/text&r=follow`, { expectedContent: 'operational' }), local);
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
  });

  it('follows up to 10 redirects', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/chain?n=10`, { expectedContent: 'end of chain' }), local);
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('judges the redirect itself when followRedirects is false', async () => {
    const config = aCheckConfig(`${site.url}/redirect?to=/text&r=nofollow`, { followRedirects: false });
    const result = await runProbe(config, local);
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: 'Expected status 2xx, got 302' });
    expect(requestsTo(site, '/text').some((r) => r.url.includes('nofollow'))).toBe(false);
    expect(await runProbe({ ...config, expectedStatus: [301, 302] }, local)).toMatchObject({ ok: true, statusCode: 302 });
  });

  it('fails a redirect loop with "Too many redirects" after 10 redirects', async () => {
    const before = requestsTo(site, '/loop').length;
    const result = await runProbe(aCheckConfig(`${site.url}/loop`), local);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Too many redirects/);
    expect(requestsTo(site, '/loop').length - before).toBe(11);
  });
});

describe('redirects to other schemes', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/file', 'gopher://127.0.0.1:70/x', 'data:text/plain,hi'])(
    'fails a redirect to %s with "redirect to unsupported scheme", never throwing',
    async (to) => {
      const result = await runProbe(aCheckConfig(`${site.url}/redirect?to=${encodeURIComponent(to)}`), local);
      expect(result).toMatchObject({ ok: false, error: 'redirect to unsupported scheme', attempts: 1 });
    },
  );
});

describe('timings', () => {
  it('reports dns, connect and first byte of a plain http check, no tls, all within the total', async () => {
    const result = await runProbe(aCheckConfig(`http://localhost:${site.port}/text`), local);
    expect(result.ok).toBe(true);
    const { dns, connect, tls, firstByte } = result.timings!;
    for (const phase of [dns, connect, firstByte]) {
      expect(Number.isInteger(phase)).toBe(true);
      expect(phase!).toBeGreaterThanOrEqual(0);
    }
    expect(tls).toBeNull();
    expect(dns! + connect! + firstByte!).toBeLessThanOrEqual(result.responseTime! + 1);
  });

  it('reports a tls phase for https', async () => {
    const result = await runProbe(aCheckConfig(`${tlsSite.url}/text`, { verifySsl: false }), local);
    expect(result.ok).toBe(true);
    expect(Number.isInteger(result.timings!.tls)).toBe(true);
  });

  it('has only nulls when no connection was made', async () => {
    const port = await unusedPort();
    const result = await runProbe(aCheckConfig(`http://127.0.0.1:${port}/`), local);
    expect(result.timings).toMatchObject({ tls: null, firstByte: null });
  });
});

describe('connections', () => {
  it('opens a fresh connection for every check and asks the target to close it', async () => {
    const ports = new Set<number>();
    const seen = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    try {
      for (let i = 0; i < 3; i += 1) await runProbe(aCheckConfig(`${seen.url}/`), local);
      expect(seen.requests).toHaveLength(3);
      for (const request of seen.requests) expect(request.headers.connection).toBe('close');
      for (const request of seen.requests) ports.add(request.remotePort);
      expect(ports.size).toBe(3);
    } finally {
      await seen.close();
    }
  });
});

describe('framing and routing headers', () => {
  it.each(['Host', 'content-length', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'TE', 'Trailer', 'Expect', 'Proxy-Authorization'])(
    'fails a check that would send %s, without sending anything',
    async (name) => {
      const before = site.requests.length;
      const result = await runProbe(aCheckConfig(`${site.url}/echo?framing`, { method: 'POST', body: 'x', headers: { [name]: '1' } }), local);
      expect(result.ok).toBe(false);
      expect(result.error).toContain(`header ${name} is not allowed`);
      expect(site.requests.length).toBe(before);
    },
  );
});

describe('TLS verification', () => {
  it('fails a self-signed certificate when verifySsl is on', async () => {
    const result = await runProbe(aCheckConfig(`${tlsSite.url}/text`), local);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'TLS error: self-signed certificate' });
  });

  it('accepts it when verifySsl is off, and still refuses it for verifying checks afterwards', async () => {
    const insecure = await runProbe(aCheckConfig(`${tlsSite.url}/text`, { verifySsl: false, expectedContent: 'operational' }), local);
    expect(insecure).toMatchObject({ ok: true, statusCode: 200 });
    // A socket of the insecure check must never be reused by a verifying one.
    const strict = await runProbe(aCheckConfig(`${tlsSite.url}/text`), local);
    expect(strict.error).toBe('TLS error: self-signed certificate');
  });
});

describe('expected status', () => {
  it.each([200, 201, 204, 299])('accepts %i by default (any 2xx)', async (code) => {
    expect(await runProbe(aCheckConfig(`${site.url}/status?code=${code}`), local)).toMatchObject({ ok: true, statusCode: code });
  });

  it.each([404, 500, 503])('rejects %i by default', async (code) => {
    expect(await runProbe(aCheckConfig(`${site.url}/status?code=${code}`), local)).toMatchObject({
      ok: false,
      statusCode: code,
      error: `Expected status 2xx, got ${code}`,
    });
  });

  it('accepts exactly the listed codes', async () => {
    const listed = { expectedStatus: [201, 404] };
    expect(await runProbe(aCheckConfig(`${site.url}/status?code=404`, listed), local)).toMatchObject({ ok: true });
    expect(await runProbe(aCheckConfig(`${site.url}/status?code=200`, listed), local)).toMatchObject({ ok: false, error: 'Expected status 201 or 404, got 200' });
    expect(await runProbe(aCheckConfig(`${site.url}/status?code=500`, { expectedStatus: [200] }), local)).toMatchObject({ error: 'Expected status 200, got 500' });
  });
});

describe('content rules', () => {
  const url = () => `${site.url}/text`;

  it('passes when the expected content is present and fails when it is not', async () => {
    expect(await runProbe(aCheckConfig(url(), { expectedContent: 'All systems operational' }), local)).toMatchObject({ ok: true });
    expect(await runProbe(aCheckConfig(url(), { expectedContent: 'maintenance' }), local)).toMatchObject({
      ok: false,
      statusCode: 200,
      error: 'Response does not contain "maintenance"',
    });
  });

  it('fails when the excluded content is present and passes when it is not', async () => {
    expect(await runProbe(aCheckConfig(url(), { excludedContent: 'Welcome' }), local)).toMatchObject({
      ok: false,
      error: 'Response contains excluded content "Welcome"',
    });
    expect(await runProbe(aCheckConfig(url(), { excludedContent: 'error' }), local)).toMatchObject({ ok: true });
  });

  it('applies the status rule before the content rules', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/status?code=500`, { expectedContent: 'nowhere' }), local);
    expect(result.error).toBe('Expected status 2xx, got 500');
  });
});

describe('JSON path', () => {
  const url = () => `${site.url}/json`;
  const probeJson = (jsonPath: string, expectedJsonValue: string | null = null) => runProbe(aCheckConfig(url(), { jsonPath, expectedJsonValue }), local);

  it('passes when the path exists and no value is expected', async () => {
    expect(await probeJson('$.nested.items')).toMatchObject({ ok: true });
    expect(await probeJson('$.nothing')).toMatchObject({ ok: true }); // present, even though null
  });

  it('fails when the path does not exist', async () => {
    expect(await probeJson('$.missing')).toMatchObject({ ok: false, statusCode: 200, error: 'JSON path $.missing not found' });
  });

  it.each([
    ['$.status', 'ok'], // strings compare raw
    ['$.count', '3'], // other values compare as JSON
    ['$.ratio', '0.5'],
    ['$.healthy', 'true'],
    ['$.nothing', 'null'],
    ['$.nested.items[0]', '{"name":"alpha"}'],
    ['$.nested.items[*].name', 'alpha'], // first match decides
  ])('matches %s against %p', async (path, expected) => {
    expect(await probeJson(path, expected)).toMatchObject({ ok: true, error: null });
  });

  it('fails on a different value, saying what it found', async () => {
    expect(await probeJson('$.status', 'down')).toMatchObject({ ok: false, error: 'JSON path $.status is "ok", expected "down"' });
    expect(await probeJson('$.count', '"3"')).toMatchObject({ ok: false, error: 'JSON path $.count is "3", expected "\\"3\\""' });
  });

  it('fails a body that is not JSON', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/invalid-json`, { jsonPath: '$.status' }), local);
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: 'Response is not valid JSON' });
  });

  it('refuses script filter expressions instead of running them', async () => {
    const result = await probeJson('$.nested.items[?(@.name === "alpha")]');
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^Invalid JSON path/);
  });
});

describe('retries', () => {
  it('retries a failing check and reports every attempt', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/flaky?key=recovers&failures=2`, { retryCount: 2, expectedContent: 'recovered' }), local);
    expect(result).toMatchObject({ ok: true, statusCode: 200, attempts: 3 });
    const served = requestsTo(site, '/flaky').filter((r) => r.url.includes('key=recovers'));
    expect(served).toHaveLength(3);
    expect(result.checkedAt.getTime()).toBeLessThanOrEqual(served[0].receivedAt); // start of the FIRST attempt
  });

  it('gives up after retryCount extra attempts with the last reason', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/flaky?key=stays-down&failures=5`, { retryCount: 1 }), local);
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: 'Expected status 2xx, got 500', attempts: 2 });
  });

  it('does not retry a passing check', async () => {
    expect(await runProbe(aCheckConfig(`${site.url}/text`, { retryCount: 3 }), local)).toMatchObject({ ok: true, attempts: 1 });
  });

  it('retries network failures too', async () => {
    const port = await unusedPort();
    expect(await runProbe(aCheckConfig(`http://127.0.0.1:${port}/`, { retryCount: 2 }), local)).toMatchObject({
      ok: false,
      error: 'Connection refused',
      attempts: 3,
    });
  });
});

describe('body cap', () => {
  it('finishes a 10 MiB body quickly, finding content in the first MiB', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/big`, { expectedContent: 'EARLY-MARKER' }), local);
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.responseTime).toBeLessThan(5000);
  });

  it('does not see content placed after the first MiB', async () => {
    const missing = await runProbe(aCheckConfig(`${site.url}/big`, { expectedContent: 'LATE-MARKER' }), local);
    expect(missing).toMatchObject({ ok: false, error: 'Response does not contain "LATE-MARKER"' });
    const excluded = await runProbe(aCheckConfig(`${site.url}/big`, { excludedContent: 'LATE-MARKER' }), local);
    expect(excluded).toMatchObject({ ok: true });
  });

  it('stops reading a body that never ends', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/endless`, { expectedContent: 'ENDLESS-START', timeout: 10 }), local);
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.responseTime).toBeLessThan(5000);
    // The probe hangs up instead of leaving a stalled download (and its socket) behind.
    for (let waited = 0; !endlessStream.closed && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(endlessStream).toEqual({ started: true, closed: true });
  });

  it('honours a custom cap to the byte', async () => {
    const url = `${site.url}/text`; // "Welcome to the service. All systems operational."
    const fits = await runProbeWithPolicy(aCheckConfig(url, { expectedContent: 'service' }), () => true, 'Welcome to the service'.length);
    expect(fits.ok).toBe(true);
    const cut = await runProbe(aCheckConfig(url, { expectedContent: 'service' }), { ...local, maxBodyBytes: 'Welcome to the servic'.length });
    expect(cut).toMatchObject({ ok: false, error: 'Response does not contain "service"' });
  });

  it('says when JSON is invalid because the body was cut', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/json`, { jsonPath: '$.status' }), { ...local, maxBodyBytes: 10 });
    expect(result.error).toBe('Response is not valid JSON (only the start of a larger body was read)');
  });
});

describe('errors on our side', () => {
  it('throws instead of reporting the target down when our own code fails', async () => {
    const brokenPolicy = (): boolean => {
      throw new Error('policy bug');
    };
    await expect(runProbeWithPolicy(aCheckConfig(`${site.url}/text`), brokenPolicy)).rejects.toThrow('policy bug');
  });

  it('throws on a configuration the API should never have accepted', async () => {
    await expect(runProbe(aCheckConfig(`${site.url}/text`, { timeout: 0 }), local)).rejects.toThrow(RangeError);
    await expect(runProbe(aCheckConfig(`${site.url}/text`, { retryCount: -1 }), local)).rejects.toThrow(RangeError);
  });
});
