/**
 * The tests of our own field rules (field-spec.ts `isHttpUrl`, `isHeaderMap`), as plain
 * functions: the API registers them as decorators of those names (services/api/src/http/validators.ts)
 * and the agent protocol's parser calls them. Pure: the web app may import this file.
 */

/** Scheme, then `//`: `http:example.com`, relative URLs and surrounding spaces are refused. */
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^\s]+$/i;

/** The longest URL a monitor or a webhook may have. */
export const HTTP_URL_MAX_LENGTH = 2048;

const utf8 = new TextEncoder();
/** Whether `value` is a string of at most `bound` bytes once encoded as UTF-8 (what goes on the wire). */
export const isWithinUtf8Bytes = (value: unknown, bound: number): boolean => typeof value === 'string' && utf8.encode(value).length <= bound;

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > HTTP_URL_MAX_LENGTH || !ABSOLUTE_HTTP_URL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** `tcp://HOST:PORT` or `tls://HOST:PORT`: a host, a port, nothing else. */
const TCP_URL = /^(tcp|tls):\/\/[^\s/?#@]+$/i;

/**
 * A TCP target, `tcp://HOST:PORT` or `tls://HOST:PORT` (HOST a name, an IPv4 address or a
 * bracketed IPv6 address; PORT 1 to 65535), with no user, path, query or fragment.
 */
export function isTcpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > HTTP_URL_MAX_LENGTH || !TCP_URL.test(value)) return false;
  const target = tcpTargetOf(value);
  return target !== null && target.port > 0;
}

/**
 * The host and port of a `tcp://` or `tls://` URL, parsed as WHATWG parses an http URL's
 * authority, so a host is normalised as it is for http (`127.1`, `0x7f.1` and `2130706433` are
 * 127.0.0.1, an IPv6 literal loses its brackets); null when it is not one.
 */
export function tcpTargetOf(value: string): { tls: boolean; host: string; port: number } | null {
  const m = /^(tcp|tls):\/\/(.+)$/i.exec(value);
  if (!m) return null;
  try {
    const url = new URL(`http://${m[2]}`);
    if (url.hostname.length === 0 || url.port === '' || url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
    return { tls: m[1]!.toLowerCase() === 'tls', host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) };
  } catch {
    return null;
  }
}

/** A domain name: dot-separated labels of letters, digits, `-` and `_` (SRV's `_sip._tcp`), an optional final dot. */
const DNS_NAME = /^(?=.{1,254}$)([A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;

/** The longest `dns://NAME`: a name is at most 253 characters, and its final dot. */
export const DNS_URL_MAX_LENGTH = 260;

/** `dns://NAME`: the name a dns check resolves (docs/monitors.md, "DNS records"). */
export function isDnsUrl(value: unknown): value is string {
  return typeof value === 'string' && dnsNameOf(value) !== null;
}

/** The name of a `dns://NAME` URL, without its final dot; null when it is not one. */
export function dnsNameOf(value: string): string | null {
  const m = /^dns:\/\/(.+)$/i.exec(value);
  if (!m || !DNS_NAME.test(m[1]!)) return null;
  return m[1]!.replace(/\.$/, '');
}

/** `HOST`, `HOST:PORT`, `[IPv6]`, `[IPv6]:PORT` or a bare IPv6 address. */
const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:/?#@[\]]+))(?::([0-9]{1,5}))?$|^([0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;

/** The longest `HOST:PORT` a field takes. */
export const HOST_PORT_MAX_LENGTH = 261;

/** `HOST` or `HOST:PORT`, its port 1 to 65535. */
export function isHostPort(value: unknown): value is string {
  return typeof value === 'string' && value.length <= HOST_PORT_MAX_LENGTH && hostPortOf(value, 1) !== null;
}

/**
 * The host and port of `HOST` or `HOST:PORT` (`defaultPort` when none is given), the host
 * normalised as an http URL's is (`127.1` is 127.0.0.1, an IPv6 address loses its brackets);
 * null when it is not one.
 */
export function hostPortOf(value: string, defaultPort: number): { host: string; port: number } | null {
  const m = HOST_PORT.exec(value);
  if (!m) return null;
  const ipv6 = m[1] ?? m[4];
  const port = m[3] === undefined ? defaultPort : Number(m[3]);
  if (!(port >= 1 && port <= 65535)) return null;
  try {
    const url = new URL(`http://${ipv6 === undefined ? m[2]! : `[${ipv6}]`}/`);
    if (url.hostname.length === 0) return null;
    return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
  } catch {
    return null;
  }
}

/** `ping://HOST`: a host and nothing else (a bare IPv6 address is taken as if bracketed). */
const PING_URL = /^ping:\/\/([^\s/?#@]+)$/i;

/** A ping target, `ping://HOST` (HOST a name, an IPv4 address or an IPv6 address, bracketed or not). */
export function isPingUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length <= HTTP_URL_MAX_LENGTH && pingHostOf(value) !== null;
}

/**
 * The host of a `ping://` URL, normalised as WHATWG normalises an http URL's host (as
 * `tcpTargetOf` does: `127.1` is 127.0.0.1, an IPv6 address loses its brackets); null when it is
 * not one (a port, a user, a path are refused).
 */
export function pingHostOf(value: string): string | null {
  const m = PING_URL.exec(value);
  if (!m) return null;
  const host = m[1]!;
  // A bare IPv6 address (colons, no brackets) is bracketed for the parser; any other colon is a port.
  const authority = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  if (authority.replace(/^\[[^\]]*\]/, '').includes(':')) return null;
  try {
    const url = new URL(`http://${authority}`);
    if (url.hostname.length === 0 || url.pathname !== '/') return null;
    return url.hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
}

/** How many headers a check may send and how long each may be (the OpenAPI schema says the same). */
export const HEADER_MAP_LIMITS = { entries: 50, nameLength: 100, valueLength: 4096 } as const;

/** An HTTP token (RFC 9110): what a header name may be. */
export const HEADER_NAME_PATTERN = `^[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${HEADER_MAP_LIMITS.nameLength}}$`;
const HEADER_NAME = new RegExp(HEADER_NAME_PATTERN);

/** A plain object of header name → string value, none with a line break. */
export function isHeaderMap(value: unknown): value is Record<string, string> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length <= HEADER_MAP_LIMITS.entries &&
    Object.entries(value).every(
      ([k, v]) => HEADER_NAME.test(k) && typeof v === 'string' && v.length <= HEADER_MAP_LIMITS.valueLength && !/[\r\n]/.test(v),
    )
  );
}
