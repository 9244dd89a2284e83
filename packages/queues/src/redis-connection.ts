import IORedis, { type Redis } from 'ioredis';

/**
 * A Redis connection as BullMQ needs it: blocking commands must wait forever rather than fail
 * after a few retries, and a lost connection is retried with backoff.
 */
export function createRedisConnection(url: string, name = 'uptime'): Redis {
  return new IORedis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: name,
    retryStrategy: (times) => Math.min(times * 200, 5000),
  });
}

/**
 * A Redis connection for a request path, which must answer quickly rather than wait for Redis:
 * nothing is queued while disconnected (a command fails at once), a command without an answer
 * fails after `timeoutMs` (a hung Redis), and a lost connection is retried every half second at
 * most, so requests work again within about a second of Redis returning.
 */
export function createRequestRedisConnection(url: string, name: string, timeoutMs: number): Redis {
  return new IORedis(url, {
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableReadyCheck: true,
    connectionName: name,
    retryStrategy: (times) => Math.min(times * 100, 500),
  });
}
