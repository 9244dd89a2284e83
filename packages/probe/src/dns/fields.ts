import type { FieldSpec } from '../fields/field-spec';
import { DNS_URL_MAX_LENGTH, HOST_PORT_MAX_LENGTH } from '../fields/value-tests';
import { HTTP_FIELDS } from '../http/fields';

/** The record types a dns check may ask for (docs/monitors.md, "DNS records"). */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'SRV', 'CAA', 'PTR'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** How a dns check sends its query: udp (falling back to tcp for a truncated answer) or tcp. */
export const DNS_PROTOCOLS = ['udp', 'tcp'] as const;

/** The most expected values a dns check may list, and the most answer values a result keeps. */
export const DNS_VALUES_MAX_ITEMS = 50;
/** The longest expected value, and the longest answer value a result keeps. */
export const DNS_VALUE_MAX_LENGTH = 255;

/**
 * Every field of a DNS check, declared once (docs/architecture.md, "A new monitor type"). The
 * timeout and retries are http's fields (one column, one rule each). Pure data: the web app
 * imports this file.
 */
export const DNS_FIELDS = {
  url: {
    wire: 'url',
    type: { kind: 'url', maxLength: DNS_URL_MAX_LENGTH, scheme: 'dns' },
    nullable: false,
    description: 'dns://NAME, the name the check resolves',
    check: true,
    form: { label: 'URL', hint: 'dns://NAME' },
  },
  timeout: HTTP_FIELDS.timeout,
  dnsRecordType: {
    wire: 'dns_record_type',
    type: { kind: 'choice', values: DNS_RECORD_TYPES, upperCase: true },
    nullable: false,
    default: 'A',
    description: 'The record type a dns check asks for (dns monitors only)',
    check: true,
    form: { label: 'Record type' },
  },
  dnsResolver: {
    wire: 'dns_resolver',
    type: { kind: 'hostPort', maxLength: HOST_PORT_MAX_LENGTH },
    nullable: true,
    default: null,
    description: "The resolver a dns check asks, HOST or HOST:PORT (port 53 by default); null: the first resolver of the worker's system (dns monitors only)",
    check: true,
    form: { label: 'Resolver', hint: "HOST or HOST:PORT; empty: the worker's system resolver" },
  },
  dnsProtocol: {
    wire: 'dns_protocol',
    type: { kind: 'choice', values: DNS_PROTOCOLS },
    nullable: false,
    default: 'udp',
    description: 'udp (over TCP again when the answer is truncated) or tcp (dns monitors only)',
    check: true,
    form: { label: 'Protocol' },
  },
  expectedDnsValues: {
    wire: 'expected_dns_values',
    type: { kind: 'strings', maxItems: DNS_VALUES_MAX_ITEMS, minLength: 1, maxLength: DNS_VALUE_MAX_LENGTH },
    nullable: false,
    default: [],
    description:
      'Values the answer must all hold, compared normalised: names lower-cased without the final dot, MX as "PRIORITY HOST", TXT strings joined; empty: any answer (dns monitors only)',
    check: true,
    form: { label: 'Expected values', hint: 'one per line; each must be among the answer values' },
  },
  retryCount: HTTP_FIELDS.retryCount,
} as const satisfies Record<string, FieldSpec>;
