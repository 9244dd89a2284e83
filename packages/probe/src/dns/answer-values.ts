import type { Answer } from 'dns-packet';
import type { DnsRecordType } from './fields';

/**
 * How a dns check writes a record's value (docs/monitors.md, "DNS records"), the answer's and the
 * expected ones alike, so the two compare as strings: names lower-cased without the final dot,
 * MX as `PRIORITY HOST`, SRV as `PRIORITY WEIGHT PORT TARGET`, SOA as `MNAME RNAME SERIAL REFRESH
 * RETRY EXPIRE MINIMUM`, CAA as `FLAGS TAG VALUE`, TXT's strings joined, IPv6 addresses in their
 * short form.
 */
const name = (n: string): string => n.toLowerCase().replace(/\.$/, '');

/** An IPv6 address in the form WHATWG writes it (lower case, longest zero run as `::`); anything else unchanged. */
function shortIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** The value of one answer record, or null for a record whose data is not of its type's shape. */
export function answerValue(answer: Answer): string | null {
  const data: unknown = (answer as { data?: unknown }).data;
  switch (answer.type) {
    case 'A':
      return typeof data === 'string' ? data : null;
    case 'AAAA':
      return typeof data === 'string' ? shortIpv6(data) : null;
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return typeof data === 'string' ? name(data) : null;
    case 'TXT': {
      const parts = Array.isArray(data) ? data : [data];
      return parts.map((p) => (Buffer.isBuffer(p) ? p.toString('utf8') : String(p))).join('');
    }
    case 'MX': {
      const mx = data as { preference?: number; exchange?: string };
      return `${mx.preference ?? 0} ${name(mx.exchange ?? '')}`;
    }
    case 'SRV': {
      const srv = data as { priority?: number; weight?: number; port?: number; target?: string };
      return `${srv.priority ?? 0} ${srv.weight ?? 0} ${srv.port ?? 0} ${name(srv.target ?? '')}`;
    }
    case 'SOA': {
      const soa = data as { mname: string; rname: string; serial: number; refresh: number; retry: number; expire: number; minimum: number };
      return `${name(soa.mname)} ${name(soa.rname)} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`;
    }
    case 'CAA': {
      const caa = data as { flags?: number; tag: string; value: string };
      return `${caa.flags ?? 0} ${caa.tag.toLowerCase()} ${caa.value}`;
    }
    default:
      return null;
  }
}

/**
 * An expected value as the answer's values are written: the same rules applied to what a person
 * typed (`10 MX.Example.com.` is `10 mx.example.com`), spaces around and between fields collapsed
 * for every type but TXT, whose text is compared as given.
 */
export function normaliseExpected(type: DnsRecordType, value: string): string {
  if (type === 'TXT') return value;
  const fields = value.trim().split(/\s+/);
  switch (type) {
    case 'A':
      return fields.join(' ');
    case 'AAAA':
      return shortIpv6(fields.join(' '));
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return name(fields.join(' '));
    case 'MX':
      return fields.map((f, i) => (i === 1 ? name(f) : f)).join(' ');
    case 'SRV':
      return fields.map((f, i) => (i === 3 ? name(f) : f)).join(' ');
    case 'SOA':
      return fields.map((f, i) => (i < 2 ? name(f) : f)).join(' ');
    case 'CAA':
      return fields.map((f, i) => (i === 1 ? f.toLowerCase() : f)).join(' ');
  }
}
