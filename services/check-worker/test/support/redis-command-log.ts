import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A command as Redis ran it: name (lower case) and arguments. */
export type RedisCommand = string[];

export interface RedisCommandLog {
  /**
   * The commands sent by clients (not those a script ran) that named a key under the prefix,
   * since the start or the last clear(), once Redis has run every command sent before this call.
   */
  settled(): Promise<RedisCommand[]>;
  /** Forgets the commands logged so far, once Redis has run every command sent before this call. */
  clear(): Promise<void>;
  close(): void;
}

/**
 * Logs the commands Redis runs on keys under `prefix`, as MONITOR shows them: what reached the
 * server, not what a client meant to send. `redis` is a connection of the test's own: it opens
 * the MONITOR connection and sends the marker settled() waits for.
 */
export async function logRedisCommands(redis: Redis, prefix: string): Promise<RedisCommandLog> {
  const monitor = await redis.monitor();
  let log: RedisCommand[] = [];
  const markersSeen = new Set<string>();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua' || !args.some((a) => a.startsWith(prefix))) return;
    const marker = args.find((a) => a.startsWith(`${prefix}:log-marker:`));
    if (marker) markersSeen.add(marker);
    else log.push([args[0]!.toLowerCase(), ...args.slice(1)]);
  });
  // MONITOR reports commands in the order Redis ran them, a little after: once the marker
  // shows, so has every command Redis ran before it.
  const settle = async (): Promise<void> => {
    const marker = `${prefix}:log-marker:${randomUUID()}`;
    await redis.exists(marker);
    while (!markersSeen.has(marker)) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return {
    async settled() {
      await settle();
      return [...log];
    },
    async clear() {
      await settle();
      log = [];
    },
    close() {
      monitor.disconnect();
    },
  };
}
