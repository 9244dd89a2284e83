import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import { allowPublicAddressesOnly, runProbe, runProbeWithPolicy, type ProbeResult } from '../src';
import type { ProbeOptions } from '../src/check-config';
import { aTcpCheckConfig } from './support/check-config-builder';
import { certificateBetween, selfSignedCertificate, unusedPort, type TlsMaterial } from './support/test-servers';

const local: ProbeOptions = { allowPrivateTargets: true };
const DAY_MS = 86_400_000;
const servers: Server[] = [];
const sockets = new Set<Socket>();

/** A TCP (or, with `tls`, TLS) listener on 127.0.0.1 that serves each connection with `serve`. */
async function listen(serve: (socket: Socket) => void, tls?: TlsMaterial): Promise<number> {
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    serve(socket);
  };
  const server = tls ? createTlsServer(tls, track) : createNetServer(track);
  // A TLS client the server refuses (an expired certificate) ends the handshake; that is no error of the test.
  server.on('tlsClientError', () => undefined);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

describe('tcp check', () => {
  it('is up when the connection completes, timing the connect phase', async () => {
    const port = await listen(() => undefined);
    const result = await runProbe(aTcpCheckConfig(`tcp://127.0.0.1:${port}`, { timeout: 1 }), local);
    expect(result).toMatchObject({ ok: true, error: null, statusCode: null, attempts: 1, certificateExpiresAt: null });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(result.timings).toMatchObject({ connect: expect.any(Number), tls: null, firstByte: null });
  });

  it('is down with "Connection refused" when nothing listens, after each retry', async () => {
    const result = await runProbe(aTcpCheckConfig(`tcp://127.0.0.1:${await unusedPort()}`, { timeout: 1, retryCount: 1 }), local);
    expect(result).toMatchObject({ ok: false, error: 'Connection refused', responseTime: null, attempts: 2 });
  });

  it('judges the banner the target sends first against expected_content and excluded_content', async () => {
    const port = await listen((socket) => socket.write('SSH-2.0-OpenSSH_9.6\r\n'));
    const url = `tcp://127.0.0.1:${port}`;
    expect(await runProbe(aTcpCheckConfig(url, { timeout: 1, expectedContent: 'SSH-2.0' }), local)).toMatchObject({ ok: true });
    const excluded = await runProbe(aTcpCheckConfig(url, { timeout: 1, excludedContent: 'OpenSSH' }), local);
    expect(excluded).toMatchObject({ ok: false, error: 'Excluded content found: "OpenSSH"' });
    const missing = await runProbe(aTcpCheckConfig(url, { timeout: 1, expectedContent: 'SMTP' }), local);
    expect(missing).toMatchObject({ ok: false, error: 'Expected content not found: "SMTP"' });
    expect(missing.timings?.firstByte).toEqual(expect.any(Number));
  });

  it('reads until the timeout, so a banner sent in pieces far apart is judged whole', async () => {
    const port = await listen((socket) => {
      socket.write('220 mail.example.com ');
      setTimeout(() => socket.write('ESMTP ready\r\n'), 400);
    });
    const url = `tcp://127.0.0.1:${port}`;
    expect(await runProbe(aTcpCheckConfig(url, { timeout: 2, expectedContent: 'ESMTP ready' }), local)).toMatchObject({ ok: true });
    const excluded = await runProbe(aTcpCheckConfig(url, { timeout: 2, expectedContent: '220', excludedContent: 'ready' }), local);
    expect(excluded).toMatchObject({ ok: false, error: 'Excluded content found: "ready"' });
  });

  it('sends tcp_send once connected and reads the answer', async () => {
    const port = await listen((socket) => socket.on('data', (data) => socket.write(String(data) === 'PING\r\n' ? '+PONG\r\n' : '-ERR\r\n')));
    const url = `tcp://127.0.0.1:${port}`;
    expect(await runProbe(aTcpCheckConfig(url, { timeout: 1, tcpSend: 'PING\r\n', expectedContent: '+PONG' }), local)).toMatchObject({ ok: true });
    expect(await runProbe(aTcpCheckConfig(url, { timeout: 1, tcpSend: 'QUIT\r\n', expectedContent: '+PONG' }), local)).toMatchObject({ ok: false });
  });

  it('is down when a target that accepts never answers what a content rule waits for', async () => {
    const port = await listen(() => undefined);
    const started = Date.now();
    const result = await runProbe(aTcpCheckConfig(`tcp://127.0.0.1:${port}`, { timeout: 1, expectedContent: 'READY' }), local);
    expect(result).toMatchObject({ ok: false, error: 'Expected content not found: "READY"' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('times out a tls:// target whose handshake never completes', async () => {
    const port = await listen(() => undefined);
    const result = await runProbe(aTcpCheckConfig(`tls://127.0.0.1:${port}`, { timeout: 1 }), local);
    expect(result).toMatchObject({ ok: false, error: 'Timeout after 1s', responseTime: null });
  });

  it('is down when the target closes the connection before the TLS handshake', async () => {
    const port = await listen((socket) => socket.end());
    const result = await runProbe(aTcpCheckConfig(`tls://127.0.0.1:${port}`, { timeout: 1 }), local);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/closed|reset|TLS|socket disconnected/i);
  });

  it('refuses a private address under the SSRF guard, an IP literal before connecting and a name once resolved', async () => {
    const port = await listen(() => undefined);
    const literal = await runProbeWithPolicy(aTcpCheckConfig(`tcp://127.0.0.1:${port}`, { timeout: 1 }), allowPublicAddressesOnly);
    expect(literal).toMatchObject({ ok: false, error: 'Target address 127.0.0.1 is not allowed (private or reserved range)' });
    const named = await runProbeWithPolicy(aTcpCheckConfig(`tcp://localhost:${port}`, { timeout: 1 }), allowPublicAddressesOnly);
    expect(named.ok).toBe(false);
    expect(named.error).toMatch(/^Target address .+ \(resolved from localhost\) is not allowed/);
  });
});

describe('tls check', () => {
  let selfSigned: TlsMaterial;
  let port: number;

  beforeAll(async () => {
    selfSigned = selfSignedCertificate(10);
    port = await listen((socket) => socket.write('* OK IMAP4rev1 ready\r\n'), selfSigned);
  });

  it('refuses a self-signed certificate when verify_ssl is on', async () => {
    const result = await runProbe(aTcpCheckConfig(`tls://127.0.0.1:${port}`, { timeout: 1 }), local);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^TLS error: .*self[- ]signed/i);
    expect(result.certificateExpiresAt).toBeNull();
  });

  it('completes the handshake without verification, recording the phases and the certificate expiry', async () => {
    const result = await runProbe(aTcpCheckConfig(`tls://127.0.0.1:${port}`, { timeout: 1, verifySsl: false, expectedContent: '* OK' }), local);
    expect(result).toMatchObject({ ok: true, error: null });
    expect(result.timings).toMatchObject({ connect: expect.any(Number), tls: expect.any(Number), firstByte: expect.any(Number) });
    expect(result.responseTime).toBeGreaterThanOrEqual(result.timings!.tls!);
    expect(result.certificateExpiresAt?.getTime()).toBe(new Date(new X509Certificate(selfSigned.cert).validTo).getTime());
    expect((result.certificateExpiresAt!.getTime() - Date.now()) / DAY_MS).toBeGreaterThan(9.9);
  });

  describe('with a certificate the checking process trusts (NODE_EXTRA_CA_CERTS)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcp-probe-ca-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** A check run in a node process that trusts `tls.cert`, as a probe of a deployment trusting its CA would. */
    async function checkTrusting(tls: TlsMaterial, url: string): Promise<ProbeResult> {
      const ca = join(dir, `${Math.random().toString(36).slice(2)}.pem`);
      writeFileSync(ca, tls.cert);
      const script = `require(${JSON.stringify(resolve(__dirname, '../src'))}).runProbe(${JSON.stringify(aTcpCheckConfig(url, { timeout: 2 }))}, { allowPrivateTargets: true }).then((r) => process.stdout.write(JSON.stringify(r)))`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: ca } });
      return JSON.parse(stdout) as ProbeResult;
    }

    it('is up for a valid certificate with verify_ssl on', async () => {
      const valid = certificateBetween(new Date(Date.now() - DAY_MS), new Date(Date.now() + 30 * DAY_MS));
      const validPort = await listen(() => undefined, valid);
      const result = await checkTrusting(valid, `tls://127.0.0.1:${validPort}`);
      expect(result).toMatchObject({ ok: true, error: null });
      expect(new Date(result.certificateExpiresAt as unknown as string).getTime()).toBe(new Date(new X509Certificate(valid.cert).validTo).getTime());
    }, 20_000);

    it('is down for an expired certificate, naming the expiry', async () => {
      const expired = certificateBetween(new Date('2020-01-01T00:00:00Z'), new Date('2020-02-01T00:00:00Z'));
      const expiredPort = await listen(() => undefined, expired);
      const result = await checkTrusting(expired, `tls://127.0.0.1:${expiredPort}`);
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^TLS error: certificate has expired/) });
    }, 20_000);
  });
});
