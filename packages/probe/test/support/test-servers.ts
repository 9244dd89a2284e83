import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  receivedAt: number;
  /** The client's port: a different one means a different connection. */
  remotePort: number;
}

export type RouteHandler = (req: RecordedRequest, res: ServerResponse) => void;

export interface TestServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface TlsMaterial {
  key: string;
  cert: string;
}

/** A self-signed certificate for 127.0.0.1/localhost valid for `days`, made with the machine's openssl. */
export function selfSignedCertificate(days = 1): TlsMaterial {
  const dir = mkdtempSync(join(tmpdir(), 'probe-tls-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyPath, '-out', certPath, '-days', String(days), '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ], { stdio: 'ignore' });
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A self-signed certificate for 127.0.0.1/localhost valid from `notBefore` to `notAfter` (an
 * expired one, for a client that trusts it), made with the machine's openssl (`ca -selfsign`,
 * since `req -days` takes no date in the past).
 */
export function certificateBetween(notBefore: Date, notAfter: Date): TlsMaterial {
  const dir = mkdtempSync(join(tmpdir(), 'probe-tls-'));
  const at = (d: Date): string => `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
  try {
    const file = (name: string): string => join(dir, name);
    writeFileSync(file('index.txt'), '');
    writeFileSync(file('serial'), '01\n');
    writeFileSync(
      file('ca.cnf'),
      `[ca]\ndefault_ca = d\n[d]\ndatabase = ${file('index.txt')}\nnew_certs_dir = ${dir}\nserial = ${file('serial')}\ndefault_md = sha256\npolicy = p\ncopy_extensions = copy\n[p]\ncommonName = supplied\n`,
    );
    execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('key.pem')], { stdio: 'ignore' });
    execFileSync('openssl', [
      'req', '-new', '-key', file('key.pem'), '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-out', file('req.csr'),
    ], { stdio: 'ignore' });
    execFileSync('openssl', [
      'ca', '-batch', '-config', file('ca.cnf'), '-selfsign', '-keyfile', file('key.pem'), '-in', file('req.csr'), '-out', file('cert.pem'),
      '-startdate', at(notBefore), '-enddate', at(notAfter), '-notext',
    ], { stdio: 'ignore' });
    return { key: readFileSync(file('key.pem'), 'utf8'), cert: readFileSync(file('cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts an HTTP (or, with `tls`, HTTPS) server on `host` and a free port, recording requests. */
export async function startTestServer(handler: RouteHandler, options: { host?: string; tls?: TlsMaterial } = {}): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString(), receivedAt, remotePort: req.socket.remotePort ?? 0 };
      requests.push(recorded);
      handler(recorded, res);
    });
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, onRequest) : createHttpServer(onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${scheme}://${hostInUrl}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then released). */
export async function unusedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
