import type { Config } from '@uptime/config';
import type { Logger } from '@uptime/logger';
import { claimDataDir, resolveDataDir } from './data-dir';
import { embeddedPostgresVersion, startEmbeddedPostgres, type LocalServer } from './embedded-postgres';
import { findOnPath, RedisMissingError, startPrivateRedis } from './private-redis';
import { answers } from './reachable';

/** Where the database and Redis of this run are, and what this process started to provide them. */
export interface LocalServices {
  databaseUrl: string;
  redisUrl: string;
  /** The data folder, when an embedded server keeps its data there. */
  dataDir?: string;
  /** Human descriptions, for the start-up banner: "embedded PostgreSQL (…)". */
  database: string;
  redis: string;
  /** Which of the two this process started (and stops): the others are the user's own. */
  started: { database: boolean; redis: boolean };
  /** Stops what this process started, Redis and Postgres, after the services have stopped. */
  stop(): Promise<void>;
}

const withoutPassword = (url: string): string => {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
};

/**
 * What `pnpm start` uses (docs/first-run.md): DATABASE_URL and REDIS_URL when set; otherwise
 * whatever answers at the default addresses; otherwise an embedded PostgreSQL and a private
 * redis-server with their data in DATA_DIR (`.data/` of the repository; as root, what the
 * `postgres` user cannot reach there is kept in EMBEDDED_POSTGRES_DIR). Redis is looked at first,
 * so a machine without it is told at once, before a database is started for nothing.
 */
export async function provideLocalServices(config: Config, logger: Logger): Promise<LocalServices> {
  const local = config.local ?? { databaseUrlSet: true, redisUrlSet: true };
  const useRedis = local.redisUrlSet || (await answers(config.redis.url));
  const redisBinary = useRedis ? undefined : findOnPath('redis-server');
  if (!useRedis && !redisBinary) throw new RedisMissingError(config.redis.url);
  const useDatabase = local.databaseUrlSet || (await answers(config.databaseUrl));

  const started: LocalServer[] = [];
  const dataDir = useRedis && useDatabase ? undefined : resolveDataDir(local.dataDir);
  const release = dataDir ? claimDataDir(dataDir) : () => undefined;
  const stop = async (): Promise<void> => {
    // Redis first: the services are stopped, nothing writes to Postgres any more.
    for (const server of started.reverse()) await server.stop();
    release();
  };
  try {
    let databaseUrl = config.databaseUrl;
    let database = `PostgreSQL at ${withoutPassword(databaseUrl)}${local.databaseUrlSet ? ' (DATABASE_URL)' : ''}`;
    if (!useDatabase && dataDir) {
      const pg = await startEmbeddedPostgres(dataDir, (line) => logger.debug({ component: 'postgres' }, line), local.embeddedPostgresDir);
      started.push(pg);
      databaseUrl = pg.url;
      database = `embedded PostgreSQL ${embeddedPostgresVersion(dataDir)} at ${pg.safeUrl}, ${pg.where}`;
    }
    logger.info(`database: ${database}`);

    let redisUrl = config.redis.url;
    let redis = `Redis at ${withoutPassword(redisUrl)}${local.redisUrlSet ? ' (REDIS_URL)' : ''}`;
    if (redisBinary && dataDir) {
      const server = await startPrivateRedis(redisBinary, dataDir, (line) => logger.debug({ component: 'redis' }, line));
      started.push(server);
      redisUrl = server.url;
      redis = `private redis-server (${redisBinary}) at ${server.url}, data in ${dataDir}/redis`;
    }
    logger.info(`redis: ${redis}`);
    return { databaseUrl, redisUrl, dataDir, database, redis, started: { database: !useDatabase, redis: !useRedis }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
