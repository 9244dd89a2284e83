import { ConfigError, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, loadConfig, withRedisUrl } from './load-config';

const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe('loadConfig: what a local run may provide by itself', () => {
  it('uses the default addresses and says DATABASE_URL and REDIS_URL were not set', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBe(DEFAULT_DATABASE_URL);
    expect(config.redis.url).toBe(DEFAULT_REDIS_URL);
    expect(config.local).toEqual({ dataDir: undefined, databaseUrlSet: false, redisUrlSet: false });
    expect(config.logFormat).toBeUndefined();
  });

  it('lets the test-only variables move the default addresses, and DATABASE_URL / REDIS_URL win over them', () => {
    const moved = loadConfig({ TEST_DEFAULT_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/uptime', TEST_DEFAULT_REDIS_URL: 'redis://127.0.0.1:2' });
    expect(moved.databaseUrl).toBe('postgres://postgres@127.0.0.1:1/uptime');
    expect(moved.redis.url).toBe('redis://127.0.0.1:2');
    expect(moved.local).toMatchObject({ databaseUrlSet: false, redisUrlSet: false });
    const given = loadConfig({
      TEST_DEFAULT_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/uptime',
      DATABASE_URL: 'postgres://db.example:5432/uptime',
      REDIS_URL: 'redis://redis.example:6379',
      DATA_DIR: '/var/lib/uptime',
      EMBEDDED_POSTGRES_DIR: '/srv/uptime-postgres',
    });
    expect(given.databaseUrl).toBe('postgres://db.example:5432/uptime');
    expect(given.local).toEqual({ dataDir: '/var/lib/uptime', embeddedPostgresDir: '/srv/uptime-postgres', databaseUrlSet: true, redisUrlSet: true });
  });

  it('chooses the ping backend by PING_BACKEND, auto when unset, and names the variable when it is none of the three', () => {
    expect(loadConfig({}).pingBackend).toBe('auto');
    expect(loadConfig({ PING_BACKEND: 'sockets' }).pingBackend).toBe('sockets');
    expect(loadConfig({ PING_BACKEND: 'iputils' }).pingBackend).toBe('iputils');
    expect(() => loadConfig({ PING_BACKEND: 'raw' })).toThrow(/PING_BACKEND/);
  });

  it('accepts LOG_FORMAT json or pretty and names the variable otherwise', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    const problems = problemsOf({ LOG_FORMAT: 'xml', TEST_DEFAULT_REDIS_URL: 'http://nope' });
    expect(problems).toEqual([expect.stringMatching(/^LOG_FORMAT: /), 'TEST_DEFAULT_REDIS_URL: must be a redis:// URL']);
  });

  it('says one sentence per wrong variable, its type first', () => {
    expect(problemsOf({ PORT: 'eighty' })).toEqual(['PORT: must be an integer number']);
    expect(problemsOf({ PORT: '70000', HEALTH_PORT: '-1' })).toEqual(['PORT: must not be greater than 65535', 'HEALTH_PORT: must not be less than 0']);
  });
});

describe('loadConfig: the channels of services at a fixed address', () => {
  it("defaults to the services' own endpoints", () => {
    expect(loadConfig({}).channelServices).toEqual({
      telegramApiUrl: 'https://api.telegram.org',
      pagerdutyEventsUrl: 'https://events.pagerduty.com/v2/enqueue',
      pushoverApiUrl: 'https://api.pushover.net/1/messages.json',
    });
  });

  it('takes the overrides, without a trailing slash on the Telegram base, and names a malformed one', () => {
    const config = loadConfig({
      TELEGRAM_API_URL: 'http://127.0.0.1:8081/',
      PAGERDUTY_EVENTS_URL: 'http://127.0.0.1:8082/v2/enqueue',
      PUSHOVER_API_URL: 'http://127.0.0.1:8083/1/messages.json',
    });
    expect(config.channelServices).toEqual({
      telegramApiUrl: 'http://127.0.0.1:8081',
      pagerdutyEventsUrl: 'http://127.0.0.1:8082/v2/enqueue',
      pushoverApiUrl: 'http://127.0.0.1:8083/1/messages.json',
    });
    expect(() => loadConfig({ PUSHOVER_API_URL: 'not a url' })).toThrow(/PUSHOVER_API_URL/);
  });
});

describe('loadConfig: the shards of the checks queue', () => {
  it('is one shard on REDIS_URL and QUEUE_PREFIX, taken by every worker, when CHECK_SHARDS is unset', () => {
    const config = loadConfig({ REDIS_URL: 'redis://10.0.0.1:6379', QUEUE_PREFIX: 'acme' });
    expect(config.checkShards).toEqual({ shards: [{ index: 0, url: 'redis://10.0.0.1:6379', prefix: 'acme' }], workerShards: [0] });
  });

  it('gives shard 0 QUEUE_PREFIX and each other shard a suffix of its own, and takes the listed shards in order', () => {
    const config = loadConfig({ QUEUE_PREFIX: 'acme', CHECK_SHARDS: 'redis://a:6379, redis://b:6379,rediss://c:6380', CHECK_WORKER_SHARDS: '2,0' });
    expect(config.checkShards.shards).toEqual([
      { index: 0, url: 'redis://a:6379', prefix: 'acme' },
      { index: 1, url: 'redis://b:6379', prefix: 'acme-shard-1' },
      { index: 2, url: 'rediss://c:6380', prefix: 'acme-shard-2' },
    ]);
    expect(config.checkShards.workerShards).toEqual([0, 2]);
  });

  it('moves the shards on REDIS_URL, and only those, with withRedisUrl (the private redis-server of pnpm start)', () => {
    const one = withRedisUrl(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }), 'redis://127.0.0.1:7000');
    expect(one.redis.url).toBe('redis://127.0.0.1:7000');
    expect(one.checkShards.shards.map((s) => s.url)).toEqual(['redis://127.0.0.1:7000']);
    const two = withRedisUrl(loadConfig({ REDIS_URL: 'redis://a:6379', CHECK_SHARDS: 'redis://a:6379,redis://b:6379' }), 'redis://c:6379');
    expect(two.checkShards.shards.map((s) => s.url)).toEqual(['redis://c:6379', 'redis://b:6379']);
    expect(Object.isFrozen(two.checkShards.shards[0])).toBe(true);
  });

  it('refuses a URL that is not Redis, a Redis listed twice, and a worker shard that does not exist', () => {
    expect(problemsOf({ CHECK_SHARDS: 'redis://a:6379,http://b' })).toEqual(['CHECK_SHARDS: every entry must be a redis:// or rediss:// URL (not "http://b")']);
    expect(problemsOf({ CHECK_SHARDS: 'redis://a:6379,redis://a:6379' })).toEqual(['CHECK_SHARDS: each Redis may be listed once (redis://a:6379 repeated)']);
    expect(problemsOf({ CHECK_SHARDS: 'redis://a:6379,redis://b:6379', CHECK_WORKER_SHARDS: '1,2,x' })).toEqual([
      'CHECK_WORKER_SHARDS: every entry must be a shard number from 0 to 1 (not "2", "x")',
    ]);
    expect(problemsOf({ CHECK_WORKER_SHARDS: '1' })).toEqual(['CHECK_WORKER_SHARDS: every entry must be a shard number from 0 to 0 (not "1")']);
    expect(problemsOf({ CHECK_SHARDS: 'redis://a:6379,redis://b:6379', CHECK_WORKER_SHARDS: '1,1' })).toEqual(['CHECK_WORKER_SHARDS: each shard may be listed once']);
  });
});
