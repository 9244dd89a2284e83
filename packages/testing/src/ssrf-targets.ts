import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, startFakeHttpServer, type FakeHttpServer } from './fake-http-server';

/** The error of a check the SSRF guard refused (packages/probe/src/ssrf-guard.ts). */
export const SSRF_REFUSED = /^Target address .+ is not allowed \(private or reserved range\)$/;

/**
 * Local servers an SSRF attempt would reach, and the spellings of their addresses an attacker
 * would try. Shared by the API's test (POST /monitors/{id}/test) and the check-worker's (the
 * run-check processor): both paths must refuse the same table.
 */
export interface SsrfTargets {
  /** Answers 200 "inside" on 127.0.0.1. */
  v4: FakeHttpServer;
  /** Answers 200 "secret": what the redirector sends a check to. */
  internal: FakeHttpServer;
  /** Redirects (302) to its `?to=` parameter. */
  redirector: FakeHttpServer;
  /** Requests every server above (and the one on ::1) has answered. */
  served(): number;
  /**
   * [url, reaches a local server with the guard off]: at least 30 spellings, with a redirect to
   * loopback and a name resolving to it; the remote ones are only tried with the guard on.
   */
  table(): Array<[string, boolean]>;
  close(): Promise<void>;
}

export async function startSsrfTargets(): Promise<SsrfTargets> {
  const v4 = await startFakeHttpServer(answer(200, 'inside'));
  const internal = await startFakeHttpServer(answer(200, 'secret'));
  const redirector = await startFakeHttpServer((req, res) => {
    res.writeHead(302, { location: new URL(req.url, 'http://x').searchParams.get('to') ?? '/' });
    res.end();
  });
  let v6Hits = 0;
  const v6: Server = createServer((_req, res) => {
    v6Hits += 1;
    res.end('inside v6');
  });
  await new Promise<void>((resolve) => v6.listen(0, '::1', resolve));
  const v6Port = (v6.address() as AddressInfo).port;
  const p = v4.url.split(':')[2];
  return {
    v4,
    internal,
    redirector,
    served: () => v4.requests.length + internal.requests.length + redirector.requests.length + v6Hits,
    table: () => [
      [`http://127.0.0.1:${p}/`, true],
      [`http://2130706433:${p}/`, true],
      [`http://0x7f000001:${p}/`, true],
      [`http://0x7f.0.0.1:${p}/`, true],
      [`http://0177.0.0.1:${p}/`, true],
      [`http://017700000001:${p}/`, true],
      [`http://127.000.000.001:${p}/`, true],
      [`http://127.1:${p}/`, true],
      [`http://127.0.0.1.:${p}/`, true],
      [`http://localhost:${p}/`, true],
      [`http://LOCALHOST:${p}/`, true],
      [`http://0.0.0.0:${p}/`, true],
      [`http://0:${p}/`, true],
      [`http://[::ffff:127.0.0.1]:${p}/`, true],
      [`http://[::ffff:7f00:1]:${p}/`, true],
      [`http://[::1]:${v6Port}/`, true],
      [`http://[0:0:0:0:0:0:0:1]:${v6Port}/`, true],
      [`${redirector.url}/?to=${encodeURIComponent(`${internal.url}/secret`)}`, true],
      ['http://10.0.0.1/', false],
      ['http://172.31.255.254/', false],
      ['http://192.168.0.1/', false],
      ['http://100.100.100.200/', false],
      ['http://169.254.169.254/latest/meta-data/', false],
      ['http://2852039166/latest/meta-data/', false],
      ['http://0251.0376.0251.0376/', false],
      ['http://[fd00:ec2::254]/latest/meta-data/', false],
      ['http://[::ffff:169.254.169.254]/', false],
      ['http://[fe80::1]/', false],
      ['http://[fc00::1]/', false],
      ['http://224.0.0.1/', false],
      ['http://[ff02::1]/', false],
      ['http://[64:ff9b::7f00:1]/', false],
    ],
    async close() {
      await Promise.all([v4.close(), internal.close(), redirector.close()]);
      v6.closeAllConnections();
      await new Promise<void>((resolve) => v6.close(() => resolve()));
    },
  };
}
