import type { TLSSocket } from 'node:tls';

/**
 * The notAfter of the leaf certificate the target presented on `socket`, or null for plain
 * http, a socket without a peer certificate, or a date node cannot read
 * (docs/alert-rules.md, "Certificate expiry").
 */
export function leafCertificateExpiry(socket: unknown): Date | null {
  const tls = socket as Partial<TLSSocket> | null | undefined;
  if (typeof tls?.getPeerCertificate !== 'function') return null;
  const validTo = tls.getPeerCertificate(false)?.valid_to;
  if (!validTo) return null;
  const at = new Date(validTo);
  return Number.isNaN(at.getTime()) ? null : at;
}
