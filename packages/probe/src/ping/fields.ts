import type { FieldSpec } from '../fields/field-spec';
import { HTTP_URL_MAX_LENGTH } from '../fields/value-tests';
import { HTTP_FIELDS } from '../http/fields';

/** The echo requests one ping check sends at most (docs/monitors.md, "ICMP ping"). */
export const PING_COUNT_MAX = 10;

/**
 * Every field of a ping check, declared once (docs/architecture.md, "A new monitor type"). The
 * timeout (how long each echo request waits for its answer) and the retries are the same fields
 * as http's. Pure data: the web app imports this file.
 */
export const PING_FIELDS = {
  url: {
    wire: 'url',
    type: { kind: 'url', maxLength: HTTP_URL_MAX_LENGTH, scheme: 'ping' },
    nullable: false,
    description: 'ping://HOST: the host (a name, an IPv4 or an IPv6 address) sent ICMP echo requests',
    check: true,
    form: { label: 'URL', hint: 'ping://HOST' },
  },
  timeout: HTTP_FIELDS.timeout,
  pingCount: {
    wire: 'ping_count',
    type: { kind: 'integer', min: 1, max: PING_COUNT_MAX },
    nullable: false,
    default: 3,
    description: 'Echo requests a ping check sends, 1 s apart, each waiting up to timeout (ping monitors only)',
    check: true,
    form: { label: 'Echo requests', hint: 'sent 1 s apart; up when at least one is answered', showBounds: true },
  },
  retryCount: HTTP_FIELDS.retryCount,
} as const satisfies Record<string, FieldSpec>;
