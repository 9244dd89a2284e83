/**
 * Request headers a monitor (or an agent's check) may never set. They decide how a request is
 * framed or where it is routed, so a user setting them could smuggle a second request onto the
 * connection (`Content-Length` shorter than the body, `Transfer-Encoding`), keep it open for the
 * next check (`Connection`, `Keep-Alive`, `Upgrade`), or present a host the connection was not
 * made to (`Host`). The probe sets them itself. Compared case-insensitively; every `Proxy-*`
 * header (Proxy-Authorization, Proxy-Connection) is refused too. docs/security.md lists them.
 */
const FRAMING_OR_ROUTING_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

/** The refused names, as documentation and error messages spell them. */
export const REFUSED_CHECK_HEADERS = ['Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'TE', 'Trailer', 'Expect', 'Proxy-*'] as const;

const anyCase = (text: string): string => [...text].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');

/**
 * The same rule as a case-insensitive ECMA-262 pattern matching a refused name, for JSON Schema
 * (which has no flags): the OpenAPI document says what the API refuses.
 */
export const REFUSED_CHECK_HEADER_PATTERN = `^(${[...FRAMING_OR_ROUTING_HEADERS].map(anyCase).join('|')})$|^${anyCase('proxy-')}`;

/** True when a check may not send a header of this name. */
export function isRefusedCheckHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FRAMING_OR_ROUTING_HEADERS.has(lower) || lower.startsWith('proxy-');
}

/**
 * One message per refused header of `headers`, naming it as the user wrote it; empty when all
 * may be sent. The single rule used by the API (create, update, bulk update), the agent's check
 * request and the probe itself.
 */
export function refusedCheckHeaderProblems(headers: Readonly<Record<string, string>>): string[] {
  return Object.keys(headers)
    .filter(isRefusedCheckHeader)
    .map((name) => `header ${name} is not allowed: it controls how the request is framed or routed, which the check sets itself`);
}
