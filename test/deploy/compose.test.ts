import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { CORE_VARIABLES, envExampleKeys, envClassVariables, ROOT } from './deploy-files';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  env_file?: string | string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  command?: string[];
  ports?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
}

const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const services = compose.services;

/** `docker-compose` (Debian's package, v1) or the `docker compose` v2 plugin, whichever is here. */
function composeCommand(): string[] | null {
  if (spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0) return ['docker-compose'];
  if (spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0) return ['docker', 'compose'];
  return null;
}

describe('docker-compose.yml', () => {
  it('passes `docker-compose config` with the variables of .env.example', () => {
    const command = composeCommand();
    // CI installs Debian's docker-compose (.ci/run); a machine without it cannot run this check.
    expect(['docker-compose', 'docker compose']).toContain(command?.join(' '));
    // env_file: .env must exist, as it will for a self-hoster after `cp .env.example .env`; the
    // repository's .env (if any) is left alone: the check runs on a copy beside the real deploy/.
    const dir = mkdtempSync(path.join(tmpdir(), 'uptime-compose-'));
    try {
      copyFileSync(path.join(ROOT, 'docker-compose.yml'), path.join(dir, 'docker-compose.yml'));
      copyFileSync(path.join(ROOT, '.env.example'), path.join(dir, '.env'));
      symlinkSync(path.join(ROOT, 'deploy'), path.join(dir, 'deploy'));
      const [bin, ...pre] = command!;
      const run = spawnSync(bin, [...pre, '-f', 'docker-compose.yml', 'config', '-q'], { cwd: dir, encoding: 'utf8' });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });

      // And it refuses a broken file, so the exit code above means something.
      const broken = composeText.replace('condition: service_healthy', 'condition: whenever');
      writeFileSync(path.join(dir, 'docker-compose.yml'), broken);
      expect(spawnSync(bin, [...pre, '-f', 'docker-compose.yml', 'config', '-q'], { cwd: dir, encoding: 'utf8' }).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs Postgres 16 and Redis 7 (append-only) with volumes and health checks', () => {
    expect(services.postgres.image).toBe('postgres:16');
    expect(services.postgres.healthcheck?.test.join(' ')).toMatch(/pg_isready/);
    expect(services.postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(services.redis.image).toBe('redis:7');
    expect(services.redis.command?.join(' ')).toMatch(/--appendonly yes/);
    expect(services.redis.command?.join(' ')).toMatch(/--hash-max-listpack-value 1024/);
    expect(services.redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(services.redis.volumes).toEqual(['redis-data:/data']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data']);
  });

  it('runs the api, two check-workers and the notifier from their Dockerfiles, after Postgres and Redis are healthy', () => {
    const app = { api: 'api', 'check-worker-1': 'check-worker', 'check-worker-2': 'check-worker', notifier: 'notifier' };
    for (const [name, image] of Object.entries(app)) {
      const service = services[name];
      expect(service.build).toEqual({ context: '.', dockerfile: `deploy/docker/${image}.Dockerfile` });
      expect(existsSync(path.join(ROOT, service.build!.dockerfile))).toBe(true);
      expect(service.env_file).toBe('.env');
      expect(service.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(service.environment).toMatchObject({
        DATABASE_URL: 'postgres://postgres:${POSTGRES_PASSWORD:-uptime}@postgres:5432/uptime',
        REDIS_URL: 'redis://redis:6379',
        HOST: '0.0.0.0',
      });
    }
    expect(services.api.ports).toEqual(['3000:3000']);
    expect(services['check-worker-1'].environment?.HEALTH_PORT).toBe('9464');
    expect(services.notifier.environment?.HEALTH_PORT).toBe('9465');
  });

  it('catches mail in Mailpit unless .env configures a transport', () => {
    expect(services.mailpit.image).toMatch(/^axllent\/mailpit/);
    expect(services.mailpit.ports).toContain('8025:8025');
    expect(services.notifier.environment?.SMTP_URL).toBe('${SMTP_URL:-smtp://mailpit:1025}');
    expect(services.notifier.depends_on).toMatchObject({ mailpit: { condition: 'service_started' } });
  });
});

describe('.env.example', () => {
  const keys = envExampleKeys();

  it('lists every core variable of docs/configuration.md once', () => {
    expect(CORE_VARIABLES.filter((v) => !keys.includes(v))).toEqual([]);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('lists every variable the config loader reads, and nothing it does not (except the compose password)', () => {
    const read = envClassVariables();
    expect(read.filter((v) => !keys.includes(v))).toEqual([]);
    expect(keys.filter((k) => !read.includes(k))).toEqual(['POSTGRES_PASSWORD']);
  });
});
