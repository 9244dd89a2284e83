import type { FieldSpec } from '../fields/field-spec';
import { HTTP_URL_MAX_LENGTH } from '../fields/value-tests';
import { HTTP_FIELDS } from '../http/fields';

/** The most a TCP check sends after connecting, in bytes as UTF-8 (docs/monitors.md, "TCP and TLS ports"). */
export const TCP_SEND_MAX_LENGTH = 1024;

/**
 * Every field of a TCP (or TLS) check, declared once (docs/architecture.md, "A new monitor
 * type"). The timeout, retries, certificate verification and content rules are the same fields
 * as http's (one column, one rule each), read by this type's probe its own way: the content rules
 * against the first bytes the target sends. Pure data: the web app imports this file.
 */
export const TCP_FIELDS = {
  url: {
    wire: 'url',
    type: { kind: 'url', maxLength: HTTP_URL_MAX_LENGTH, scheme: 'tcp' },
    nullable: false,
    description: 'tcp://HOST:PORT, or tls://HOST:PORT to complete a TLS handshake too',
    check: true,
    form: { label: 'URL', hint: 'tcp://HOST:PORT or tls://HOST:PORT' },
  },
  timeout: HTTP_FIELDS.timeout,
  verifySsl: HTTP_FIELDS.verifySsl,
  tcpSend: {
    wire: 'tcp_send',
    type: { kind: 'text', minLength: 1, maxLength: TCP_SEND_MAX_LENGTH, maxBytes: TCP_SEND_MAX_LENGTH },
    nullable: true,
    default: null,
    description: `Text a tcp check sends once connected, at most ${TCP_SEND_MAX_LENGTH} bytes as UTF-8 (tcp monitors only)`,
    check: true,
    form: { label: 'Send', hint: 'sent once connected; the content rules read the first bytes answered' },
  },
  expectedContent: HTTP_FIELDS.expectedContent,
  excludedContent: HTTP_FIELDS.excludedContent,
  retryCount: HTTP_FIELDS.retryCount,
} as const satisfies Record<string, FieldSpec>;
