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
