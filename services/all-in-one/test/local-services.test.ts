import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@uptime/config';
import type { Logger } from '@uptime/logger';
import { freePort } from '@uptime/testing';
import { provideLocalServices } from '../src/local/local-services';
import { isAlive } from '../src/local/reachable';

/** The `info` lines provideLocalServices logs (what a person reads about the database and Redis). */
function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = { info: (message: string) => void lines.push(message), debug: () => undefined } as unknown as Logger;
  return { logger, lines };
}

/**
 * Which database and Redis `pnpm start` uses (docs/first-run.md): DATABASE_URL and REDIS_URL
 * when set, even when nothing answers there; else a server answering at the default address;
 * embedding only when neither. services/all-in-one/test/first-run.test.ts runs the embedded
 * case end to end; these run the others, against the machine's real Postgres and Redis.
 */
describe('provideLocalServices: what pnpm start runs on', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'uptime-local-')), 'data');
  });
  afterEach(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  const closedAddress = async (scheme: 'postgres' | 'redis'): Promise<string> =>
    scheme === 'postgres' ? `postgres://postgres@127.0.0.1:${await freePort()}/uptime` : `redis://127.0.0.1:${await freePort()}`;

  it('uses DATABASE_URL and REDIS_URL as set, even when nothing answers there, and starts nothing', async () => {
    const databaseUrl = await closedAddress('postgres');
    const redisUrl = await closedAddress('redis');
    const { logger, lines } = recordingLogger();
    const local = await provideLocalServices(loadConfig({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, DATA_DIR: dataDir }), logger);
    expect(local).toMatchObject({ databaseUrl, redisUrl, dataDir: undefined, started: { database: false, redis: false } });
    expect(lines).toEqual([`database: PostgreSQL at ${databaseUrl} (DATABASE_URL)`, `redis: Redis at ${redisUrl} (REDIS_URL)`]);
    expect(existsSync(dataDir)).toBe(false);
    await local.stop();
  });

  it('uses a PostgreSQL and a Redis answering at the default addresses, and starts nothing', async () => {
    const answeringDatabase = process.env.DATABASE_URL!;
    const answeringRedis = process.env.REDIS_URL!;
    const { logger, lines } = recordingLogger();
    const config = loadConfig({ TEST_DEFAULT_DATABASE_URL: answeringDatabase, TEST_DEFAULT_REDIS_URL: answeringRedis, DATA_DIR: dataDir });
    expect(config.local).toMatchObject({ databaseUrlSet: false, redisUrlSet: false });
    const local = await provideLocalServices(config, logger);
    expect(local).toMatchObject({ databaseUrl: answeringDatabase, redisUrl: answeringRedis, dataDir: undefined });
    expect(lines.filter((l) => l.startsWith('database: '))).toEqual([`database: PostgreSQL at ${new URL(answeringDatabase).toString()}`]);
    expect(existsSync(dataDir)).toBe(false);
    await local.stop();
  });

  it('keeps a PostgreSQL answering at the default address, and starts only the missing Redis', async () => {
    const answeringDatabase = process.env.DATABASE_URL!;
    const { logger, lines } = recordingLogger();
    const config = loadConfig({
      TEST_DEFAULT_DATABASE_URL: answeringDatabase,
      TEST_DEFAULT_REDIS_URL: await closedAddress('redis'),
      DATA_DIR: dataDir,
    });
    const local = await provideLocalServices(config, logger);
    let redisPid = 0;
    try {
      expect(local.databaseUrl).toBe(answeringDatabase);
      expect(local.dataDir).toBe(dataDir);
      // The banner tells the user their own database keeps running (banner.ts).
      expect(local.started).toEqual({ database: false, redis: true });
      expect(lines[0]).toBe(`database: PostgreSQL at ${new URL(answeringDatabase).toString()}`);
      expect(lines[1]).toMatch(
        new RegExp(`^redis: private redis-server \\(.+\\) at redis://127\\.0\\.0\\.1:\\d+, data in ${dataDir}/redis$`),
      );
      // No embedded cluster: the data folder holds Redis and the owner's pid only.
      expect(readdirSync(dataDir).sort()).toEqual(['owner.pid', 'redis']);
      redisPid = Number(readFileSync(path.join(dataDir, 'redis/redis.pid'), 'utf8').trim());
      expect(isAlive(redisPid)).toBe(true);
    } finally {
      await local.stop();
    }
    expect(isAlive(redisPid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'owner.pid'))).toBe(false);
  });
});
