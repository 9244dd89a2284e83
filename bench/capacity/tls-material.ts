import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TlsMaterial {
  key: string;
  cert: string;
  keyPath: string;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS: services that verify trust it as its own root. */
  certPath: string;
  remove(): void;
}

/**
 * A fresh self-signed P-256 certificate for 127.0.0.1 (openssl CLI: node:crypto makes keys, not
 * certificates), valid two days, in a temporary directory that `remove` deletes.
 */
export function makeTlsMaterial(): TlsMaterial {
  const dir = mkdtempSync(path.join(tmpdir(), 'uptime-bench-tls-'));
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '2',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(keyPath, 'utf8'),
    cert: readFileSync(certPath, 'utf8'),
    keyPath,
    certPath,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
