import type { Redis } from 'ioredis';
import type { RedisReply } from 'rate-limit-redis';

const RETRY_MS = 500;

/**
 * Loads a script, retrying every half second until Redis answers. Once `redis` is closed for
 * good it gives up with a sha that loads nothing: the store's first use then fails and reloads,
 * instead of this rejecting where nobody listens.
 */
async function loadScriptUntilAnswered(redis: Redis, attempt: () => Promise<RedisReply>): Promise<RedisReply> {
  for (;;) {
    try {
      return await attempt();
    } catch {
      if (redis.status === 'end') return 'not-loaded';
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
    }
  }
}

/**
 * rate-limit-redis's `sendCommand` on a fail-fast request connection (no offline queue,
 * docs/reliability.md):
 * - the store loads its scripts as it is built (`new RedisStore`), before any request awaits
 *   them: until `built()` is called, commands are retried until Redis answers, rather than
 *   rejected where nobody listens;
 * - afterwards the store answers a failed EVALSHA by loading its script again; when the failure
 *   was Redis itself (down, hung), that reload would double the request's wait, so for
 *   `timeoutMs` after such a failure a reload fails at once.
 */
export function rateLimitCommands(redis: Redis, timeoutMs: number): { send: (command: string, ...args: string[]) => Promise<RedisReply>; built: () => void } {
  let building = true;
  let failedAt = 0;
  const call = async (command: string, args: string[]): Promise<RedisReply> => {
    if (command === 'SCRIPT' && Date.now() - failedAt < timeoutMs) throw new Error('Redis unavailable: not loading the script now');
    try {
      return (await redis.call(command, ...args)) as RedisReply;
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) failedAt = Date.now();
      throw err;
    }
  };
  return {
    send: (command, ...args) => (building ? loadScriptUntilAnswered(redis, () => redis.call(command, ...args) as Promise<RedisReply>) : call(command, args)),
    built: () => {
      building = false;
    },
  };
}
