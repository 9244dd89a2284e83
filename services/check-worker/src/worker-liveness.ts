import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';

/**
 * How long a check-worker process may go without renewing its liveness before its peers take
 * its checks back (docs/reliability.md, "A check-worker killed mid-check"). Longer than the
 * event-loop stalls of a loaded machine (a second or two), so a slow process is not declared
 * dead and its checks run twice; short enough that a dead one's checks are back, and re-run,
 * long before the next slot of a 30 s interval.
 */
export const LIVENESS_TTL_MS = 3000;
/** How often a process renews its liveness and looks for dead peers: one Redis call each time. */
const RENEW_EVERY_MS = 200;

// The registry is one sorted set per queue prefix: member the process's BullMQ worker id, score
// the Redis clock (ms) at its last renewal; one clock for all, so hosts' clocks never matter.
// KEYS[1] the registry, KEYS[2] (only for a process owning a shard of several: shard-takeover.ts)
// the shard's owners, renewed alike; ARGV[1] own id, ARGV[2] 1 to (re-)register, ARGV[3] the TTL, ARGV[4] 1
// when this process may declare peers dead. Returns the verdict on this process (1 alive, 0 it
// was declared dead) and then the peers declared dead now. Removing a peer in this same script
// is the claim: exactly one process reaps each dead peer.
const RENEW = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local alive = 1
if redis.call('zscore', KEYS[1], ARGV[1]) == false and ARGV[2] ~= '1' then
  alive = 0
else
  redis.call('zadd', KEYS[1], now, ARGV[1])
  if KEYS[2] then redis.call('zadd', KEYS[2], now, ARGV[1]) end
end
local out = { alive }
if alive == 1 and ARGV[4] == '1' then
  local dead = redis.call('zrangebyscore', KEYS[1], '-inf', now - tonumber(ARGV[3]))
  for _, id in ipairs(dead) do
    redis.call('zrem', KEYS[1], id)
    table.insert(out, id)
  end
end
return out`;

export interface LivenessHandlers {
  /** A peer that stopped renewing: its checks are to be taken back now (dead-worker-reaper.ts). */
  reap(deadId: string): Promise<void>;
  /**
   * This process was declared dead (it stalled longer than the TTL) and its peers took back its
   * checks: the ones it still runs must not be recorded nor advanced (in-flight-checks.ts).
   */
  abandon(): Promise<void>;
}

/**
 * One key per queue prefix for all the check-worker processes, renewed by each every 200 ms:
 * not one per check, so the cost does not grow with the checks (docs/capacity.md). A process
 * that stopped renewing for LIVENESS_TTL_MS is removed from it by one of its peers, which then
 * takes back its checks at once instead of waiting out their locks (docs/reliability.md).
 *
 * A process declares peers dead only after its own renewals have gone through without a gap for
 * a whole TTL: after Redis was away, or this process itself stalled, every score is old and the
 * others get the time to renew before anyone judges them.
 */
export class WorkerLiveness {
  private timer?: NodeJS.Timeout;
  /** When the renewal whose answer confirmed this process alive was sent; 0 before the first. */
  private confirmedSentAt = 0;
  private lastAnswerAt = 0;
  private healthySince = 0;
  private pending?: Promise<void>;
  private stopped = false;
  /** The process's BullMQ worker id, which its job lock tokens and check lock tokens start with; set by start(). */
  private id = '';

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly handlers: LivenessHandlers,
    private readonly logger: Logger,
    private readonly ttlMs = LIVENESS_TTL_MS,
    /** The shard's owners set to renew too (checkWorkerOwnersKey()); unset with one shard, or while taking over a shard. */
    private readonly ownersKey?: string,
  ) {}

  private get key(): string {
    return `${this.prefix}:check-workers`;
  }

  private get keys(): string[] {
    return this.ownersKey === undefined ? [this.key] : [this.key, this.ownersKey];
  }

  /** Registers this process under `id` and starts renewing; resolves once registered. */
  async start(id: string): Promise<void> {
    this.id = id;
    await this.renew(true);
    this.timer = setInterval(() => void this.renewOnce(), RENEW_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Resolves once this process is known to still hold its checks: at once while its last
   * confirmed renewal is younger than the TTL (a clock comparison, nothing sent), otherwise after
   * a renewal answered, which abandons the checks in flight first if the peers declared it dead.
   */
  async confirm(): Promise<void> {
    if (this.id === '' || Date.now() - this.confirmedSentAt < this.ttlMs) return;
    await this.renewOnce();
  }

  /** Stops renewing and leaves the registry: a process that stopped cleanly has nothing to take back. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.pending?.catch(() => undefined);
    for (const key of this.keys) await this.redis.zrem(key, this.id).catch(() => undefined);
  }

  private renewOnce(): Promise<void> {
    // One renewal in flight at a time: a slow Redis is not sent a queue of them.
    this.pending ??= this.renew(false)
      .catch((err: unknown) => this.logger.warn({ err }, 'check-worker liveness not renewed'))
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  private async renew(register: boolean): Promise<void> {
    if (this.stopped) return;
    const sentAt = Date.now();
    // A gap of half a TTL since the last answer (Redis away, this process stalled): every score
    // may be old, this one's too; judge again only a whole TTL after renewals resumed.
    if (sentAt - this.lastAnswerAt > this.ttlMs / 2) this.healthySince = 0;
    const mayJudge = this.healthySince > 0 && sentAt - this.healthySince >= this.ttlMs;
    const keys = this.keys;
    const [alive, ...dead] = (await this.redis.eval(RENEW, keys.length, ...keys, this.id, register ? 1 : 0, this.ttlMs, mayJudge ? 1 : 0)) as [
      number,
      ...string[],
    ];
    const answeredAt = Date.now();
    // A slow answer is a gap as well.
    if (this.healthySince === 0 || answeredAt - sentAt > this.ttlMs / 2) this.healthySince = answeredAt;
    this.lastAnswerAt = answeredAt;
    if (alive === 0) {
      this.logger.warn({ worker_id: this.id }, 'declared dead by the other check-workers; abandoning the checks in flight');
      this.healthySince = answeredAt;
      await this.handlers.abandon();
      return this.renew(true);
    }
    this.confirmedSentAt = sentAt;
    for (const deadId of dead) {
      this.logger.warn({ dead_worker_id: deadId }, 'a check-worker stopped renewing its liveness; taking back its checks');
      // Not awaited: renewals go on while the checks come back. If this process dies meanwhile,
      // what it had not taken back comes back as before this registry: by lock expiry and BullMQ's
      // stalled-job check (check-worker.ts).
      void this.handlers
        .reap(deadId)
        .catch((err: unknown) => this.logger.error({ err, dead_worker_id: deadId }, 'taking back the checks of a dead check-worker failed'));
    }
  }
}
