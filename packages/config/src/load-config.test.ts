import { ConfigError, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, loadConfig } from './load-config';

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
    const problems = ((): string[] => {
      try {
        loadConfig({ LOG_FORMAT: 'xml', TEST_DEFAULT_REDIS_URL: 'http://nope' });
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    })();
    expect(problems).toEqual([expect.stringMatching(/^LOG_FORMAT: /), 'TEST_DEFAULT_REDIS_URL: must be a redis:// URL']);
  });

  it('says one sentence per wrong variable, its type first', () => {
    const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
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
