import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { startApiHarness, type ApiHarness } from './support/api-harness';

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
});
