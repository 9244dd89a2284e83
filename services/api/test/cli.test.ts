import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { startApiHarness, type ApiHarness } from './support/api-harness';
import { sessionCookieOf } from './support/oauth-sign-in';

jest.setTimeout(60_000);

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');

/** Runs `pnpm cli …` as a self-hoster would, against this run's database. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('pnpm', ['--silent', 'cli', ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('pnpm cli (users and tokens without OAuth)', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness();
    await h.reset();
  });
  afterAll(() => h.close());

  it('creates a user, then a token that authenticates as that user', async () => {
    const created = await cli('user:create', '--email', 'Self@Host.example', '--name', 'Self Host', '--admin');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/created user \d+ <Self@Host\.example> \(admin\)/);
    const [row] = await h.ds.query(`SELECT name, role FROM users WHERE lower(email) = 'self@host.example'`);
    expect(row).toEqual({ name: 'Self Host', role: 'admin' });

    const token = await cli('token:create', '--email', 'self@host.example');
    expect(token.code).toBe(0);
    const plaintext = token.stdout.trim();
    expect(plaintext).toMatch(/^upt_[A-Za-z0-9_-]{40,}$/);
    const me = await request(h.app).get('/api/v1/auth/user').set('Authorization', `Bearer ${plaintext}`);
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe('Self@Host.example');
  });

  it('refuses a duplicate user, an unknown email and a missing --email with a clear line', async () => {
    await cli('user:create', '--email', 'dup@example.test');
    const dup = await cli('user:create', '--email', 'DUP@example.test');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('already exists');
    const unknown = await cli('token:create', '--email', 'nobody@example.test');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no user with email nobody@example.test');
    const usage = await cli('user:create');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage:');
  });

  it('login-link prints a one-time sign-in URL under PUBLIC_URL that signs the user in once', async () => {
    await cli('user:create', '--email', 'linked@example.test');
    const link = await cli('login-link', '--email', 'LINKED@example.test');
    expect(link.code).toBe(0);
    const url = link.stdout.trim();
    expect(url).toMatch(new RegExp(`^${h.config.http.publicUrl.replace(/[.]/g, '\\.')}/api/v1/auth/link/[A-Za-z0-9_-]{43}$`));
    expect(link.stderr).toContain('15 minutes');
    const opened = await request(h.app).get(new URL(url).pathname);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(h.config.http.appUrl);
    const me = await request(h.app).get('/api/v1/auth/user').set('Cookie', sessionCookieOf(opened)!.pair);
    expect(me.body.data.email).toBe('linked@example.test');
    const reused = await request(h.app).get(new URL(url).pathname);
    expect(reused.headers.location).toBe(`${h.config.http.appUrl}/sign-in?error=invalid_link`);
    expect(reused.headers['set-cookie']).toBeUndefined();
  });

  it('login-link creates the user when the email is unknown, saying so on stderr only', async () => {
    const link = await cli('login-link', '--email', 'first@example.test', '--name', 'First', '--admin');
    expect(link.code).toBe(0);
    expect(link.stderr).toMatch(/created user \d+ <first@example\.test> \(admin\)/);
    expect(link.stdout.trim().split('\n')).toHaveLength(1);
    const [row] = await h.ds.query(`SELECT name, role FROM users WHERE email = 'first@example.test'`);
    expect(row).toEqual({ name: 'First', role: 'admin' });
    const refused = await cli('login-link', '--email', 'not-an-email');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not an email address');
  });
});
