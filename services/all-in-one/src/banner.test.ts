import { PassThrough } from 'node:stream';
import { createLogger } from '@uptime/logger';
import { testConfig } from '@uptime/testing';
import { printBanner, startupBanner } from './banner';
import type { LocalServices } from './local/local-services';

const embedded: LocalServices = {
  databaseUrl: 'postgres://postgres:secret@127.0.0.1:40000/uptime',
  redisUrl: 'redis://127.0.0.1:40001',
  dataDir: '/srv/uptime/.data',
  database: 'embedded PostgreSQL 15 at postgres://postgres@127.0.0.1:40000/uptime, data in /srv/uptime/.data/postgres',
  redis: 'private redis-server (/usr/bin/redis-server) at redis://127.0.0.1:40001, data in /srv/uptime/.data/redis',
  started: { database: true, redis: true },
  stop: async () => undefined,
};

describe('the start-up banner', () => {
  it('points at the web application once it is built, at the API explorer until then', () => {
    const config = testConfig({ PUBLIC_URL: 'http://localhost:3000' });
    expect(startupBanner(config, embedded, true).url).toBe('http://localhost:3000/');
    expect(startupBanner(config, embedded, false).url).toBe('http://localhost:3000/api/docs (the API explorer)');
  });

  it('names the email transport, and how to send for real when emails are only logged', () => {
    expect(startupBanner(testConfig({}), embedded, false).email).toBe('emails are only logged: set SENDGRID_API_KEY or SMTP_URL to send them');
    expect(startupBanner(testConfig({ SMTP_URL: 'smtp://user:pw@mail.example:587' }), embedded, false).email).toBe('sent by SMTP to mail.example:587');
    expect(startupBanner(testConfig({ SENDGRID_API_KEY: 'SG.x', SENDGRID_API_URL: 'https://api.sendgrid.com' }), embedded, false).email).toBe(
      'sent with SendGrid (https://api.sendgrid.com)',
    );
  });

  it('says where the data is: the data folder when something is embedded, the servers otherwise', () => {
    expect(startupBanner(testConfig({}), embedded, false).data).toBe('/srv/uptime/.data');
    const configured = { ...embedded, dataDir: undefined, database: 'PostgreSQL at postgres://db.example/uptime (DATABASE_URL)' };
    expect(startupBanner(testConfig({}), configured, false)).toMatchObject({
      data: 'in the PostgreSQL and Redis below (nothing embedded)',
      database: 'PostgreSQL at postgres://db.example/uptime (DATABASE_URL)',
    });
  });

  it("never says the user's own database or Redis stops with the service", () => {
    const stop = (started: LocalServices['started']) => startupBanner(testConfig({}), { ...embedded, started }, false).stop;
    expect(stop({ database: false, redis: false })).toBe('press Ctrl+C (or send SIGTERM); the services drain and stop; your database and Redis keep running');
    expect(stop({ database: false, redis: true })).toBe('press Ctrl+C (or send SIGTERM); the services drain, then the private Redis stops; your database keeps running');
    expect(stop({ database: true, redis: false })).toBe('press Ctrl+C (or send SIGTERM); the services drain, then the embedded database stops; your Redis keeps running');
  });

  it('prints plain lines at a terminal, and no JSON', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    printBanner(startupBanner(testConfig({ PUBLIC_URL: 'http://localhost:3000' }), embedded, false), true, createLogger({ level: 'silent', service: 'test' }), out);
    expect(text.split('\n').filter(Boolean)).toEqual([
      '  uptime is ready',
      '  open:      http://localhost:3000/api/docs (the API explorer)',
      '  data:      /srv/uptime/.data',
      `  database:  ${embedded.database}`,
      `  redis:     ${embedded.redis}`,
      '  email:     emails are only logged: set SENDGRID_API_KEY or SMTP_URL to send them',
      '  stop:      press Ctrl+C (or send SIGTERM); the services drain, then the embedded database and the private Redis stop',
    ]);
  });
});
