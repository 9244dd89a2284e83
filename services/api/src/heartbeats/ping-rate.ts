import type { Redis } from 'ioredis';

/** Pings a second recorded per token at most (docs/heartbeats.md); the rest are answered 429. */
export const PINGS_PER_SECOND = 5;

/** The per-IP limit of pings (PING_RATE_LIMIT_PER_MINUTE, docs/heartbeats.md): a fixed window of a minute. */
export interface PingIpLimit {
  limit: number;
  windowMs: number;
  /** The counter's Redis key of a client address (its bucket: an IPv6 address's prefix). */
  keyOf: (ip: string | undefined) => string;
}

/** What one ping's count says. */
export type PingRateVerdict =
  | { outcome: 'within'; ip?: IpWindow }
  | { outcome: 'token-limited'; ip?: IpWindow }
  | { outcome: 'ip-limited'; ip: IpWindow };

/** The per-IP window as the ping found it: for the X-RateLimit-* headers and Retry-After. */
export interface IpWindow {
  limit: number;
  remaining: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

// Each ping in turn: its address's minute count first (as the per-IP limiter ran before the route),
// and, only when within, its token's count of the second. One script for a whole batch of pings:
// ioredis builds objects per command, which was most of the ping's Redis cost in
// `pnpm bench:heartbeats --profile` (docs/capacity.md, "Heartbeats"). KEYS: the token key of
// each ping, then its IP key when there is a per-IP limit. Replies per ping: 0 within, 1 token
// limited, 2 IP limited; then, with a per-IP limit, the IP count and the window's PTTL.
const COUNT = `local tokenMs, ipMs, ipLimit, perIp = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local step = 1 + perIp
local out = {}
for i = 1, #KEYS, step do
  local verdict, ipCount, ttl = 0, 0, 0
  if perIp == 1 then
    local ipKey = KEYS[i + 1]
    ipCount = redis.call('incr', ipKey)
    ttl = redis.call('pttl', ipKey)
    if ttl < 0 then redis.call('pexpire', ipKey, ipMs); ttl = ipMs end
    if ipCount > ipLimit then verdict = 2 end
  end
  if verdict == 0 then
    local count = redis.call('incr', KEYS[i])
    if count == 1 then redis.call('pexpire', KEYS[i], tokenMs) end
    if count > ${PINGS_PER_SECOND} then verdict = 1 end
  end
  out[#out + 1] = verdict
  if perIp == 1 then out[#out + 1] = ipCount; out[#out + 1] = ttl end
end
return out`;

/**
 * Counts each ping of a batch against its token's PINGS_PER_SECOND (in the second of `now`) and,
 * when given, its address's per-IP limit, in one Redis script. Asked for every token, known or
 * not, so the answer to an unknown token costs what a known one does.
 */
export async function countPings(
  redis: Redis,
  prefix: string,
  pings: readonly { token: string; ip: string | undefined }[],
  ipLimit: PingIpLimit | undefined,
  now = Date.now(),
): Promise<PingRateVerdict[]> {
  const second = Math.floor(now / 1000);
  const keys: string[] = [];
  for (const p of pings) {
    keys.push(`${prefix}:ping-rate:${second}:${p.token}`);
    if (ipLimit) keys.push(ipLimit.keyOf(p.ip));
  }
  const reply = (await redis.eval(COUNT, keys.length, ...keys, 2000, ipLimit?.windowMs ?? 0, ipLimit?.limit ?? 0, ipLimit ? 1 : 0)) as number[];
  const width = ipLimit ? 3 : 1;
  return pings.map((_, i): PingRateVerdict => {
    const verdict = Number(reply[i * width]);
    const ip = ipLimit
      ? { limit: ipLimit.limit, remaining: Math.max(0, ipLimit.limit - Number(reply[i * width + 1])), resetMs: Number(reply[i * width + 2]) }
      : undefined;
    if (verdict === 2) return { outcome: 'ip-limited', ip: ip! };
    return { outcome: verdict === 1 ? 'token-limited' : 'within', ...(ip ? { ip } : {}) };
  });
}
