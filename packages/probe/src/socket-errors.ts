/**
 * What people read for a connection's system errors, and which error codes are TLS's: the same
 * for every type's probe (http/request-failure.ts, socket-failure.ts for tcp and dns).
 */
export const SOCKET_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the server',
  EPIPE: 'Connection closed by the server',
  ENOTFOUND: 'Host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed (temporary failure)',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ETIMEDOUT: 'Connection timed out',
};

/** OpenSSL certificate-verification codes and Node's TLS/SSL error codes. */
export const TLS_ERROR_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|INVALID_CA$|PATH_LENGTH_EXCEEDED$|INVALID_PURPOSE$|HOSTNAME_MISMATCH$)/;
