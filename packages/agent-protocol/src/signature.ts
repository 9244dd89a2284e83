import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers every signed message (request or response) carries (docs/agent-protocol.md). */
export const AGENT_HEADERS = {
  agentId: 'x-agent-id',
  timestamp: 'x-timestamp',
  signature: 'x-signature',
} as const;

/** A signed message older or newer than this (against the receiver's clock) is refused. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

const SIGNATURE_PREFIX = 'sha256=';

/**
 * The signature of a message: `sha256=` + lowercase hex HMAC-SHA256 keyed with the agent's
 * secret over `timestamp + "." + body`. `body` is the exact bytes sent (empty for a GET).
 */
export function signRequest(secret: string, timestamp: number | string, body: string | Buffer): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `${SIGNATURE_PREFIX}${mac.digest('hex')}`;
}

/** True when `signature` is the signature of (timestamp, body); compared in constant time. */
export function isValidSignature(secret: string, timestamp: number | string, body: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(signRequest(secret, timestamp, body));
  const given = Buffer.from(signature.trim().toLowerCase());
  // timingSafeEqual needs equal lengths; a length mismatch is a mismatch either way.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The three signing headers of a message about to be sent. */
export function signedHeaders(
  agentId: string | number,
  secret: string,
  body: string | Buffer,
  now: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    [AGENT_HEADERS.agentId]: String(agentId),
    [AGENT_HEADERS.timestamp]: String(timestamp),
    [AGENT_HEADERS.signature]: signRequest(secret, timestamp, body),
  };
}

export type SignatureRefusal = 'missing_headers' | 'unknown_agent' | 'clock_skew' | 'bad_signature';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureRefusal; message: string };

/** Header lookup that works for node's lower-cased `IncomingHttpHeaders` and plain records. */
type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a received message: all three headers present, the agent id the expected one, the
 * timestamp (Unix seconds) within MAX_CLOCK_SKEW_SECONDS of `now`, and the signature right.
 * Replays inside the window are the receiver's to refuse (see the agent's replay guard).
 */
export function verifySignedMessage(opts: {
  secret: string;
  expectedAgentId: string | number;
  headers: HeaderBag;
  body: string | Buffer;
  now?: Date;
}): SignatureCheck {
  const agentId = header(opts.headers, AGENT_HEADERS.agentId);
  const rawTimestamp = header(opts.headers, AGENT_HEADERS.timestamp);
  const signature = header(opts.headers, AGENT_HEADERS.signature);
  if (agentId === undefined || rawTimestamp === undefined || signature === undefined) {
    return { ok: false, reason: 'missing_headers', message: 'X-Agent-Id, X-Timestamp and X-Signature are required' };
  }
  if (agentId.trim() !== String(opts.expectedAgentId)) {
    return { ok: false, reason: 'unknown_agent', message: `X-Agent-Id ${agentId} is not this agent` };
  }
  if (!/^\d{1,12}$/.test(rawTimestamp.trim())) {
    return { ok: false, reason: 'clock_skew', message: 'X-Timestamp must be Unix seconds' };
  }
  const timestamp = Number(rawTimestamp.trim());
  const nowSeconds = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > MAX_CLOCK_SKEW_SECONDS) {
    return {
      ok: false,
      reason: 'clock_skew',
      message: `X-Timestamp is ${nowSeconds - timestamp}s away from this clock (at most ${MAX_CLOCK_SKEW_SECONDS}s)`,
    };
  }
  if (!isValidSignature(opts.secret, rawTimestamp.trim(), opts.body, signature)) {
    return { ok: false, reason: 'bad_signature', message: 'X-Signature does not match' };
  }
  return { ok: true, timestamp };
}
