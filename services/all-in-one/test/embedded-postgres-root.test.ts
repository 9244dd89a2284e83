import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { claimDataDir } from '../src/local/data-dir';
import { EmbeddedDatabaseError, startEmbeddedPostgres } from '../src/local/embedded-postgres';

jest.setTimeout(120_000);

const isRoot = process.getuid?.() === 0;

const ROOT = path.resolve(__dirname, '../../..');

/**
 * The first folder above the checkout, from the top, that the `postgres` user cannot enter: a
 * clone under a 0700 folder (a `mktemp -d`, as a CI run's may be). Then its binaries are copied
 * too, and that folder is the reason the log gives.
 */
function checkoutClosedAt(): string | undefined {
  const parts = ROOT.split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    if (spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]).status !== 0) return dir;
  }
  return undefined;
}

/** On the cluster's `postgres` database: `uptime` is made by the service's first start, not here. */
async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url.replace(/\/uptime$/, '/postgres') });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The embedded server with a data folder under a folder only root may enter (mode 700, like
 * /root), started directly: where its cluster goes, what the log says, and what is left alone.
 * first-run-private-clone.test.ts runs the same through `pnpm start` from a whole clone there,
 * binaries copied too; here the checkout's binaries are reachable, and only the data is not.
 */
describe('the embedded PostgreSQL of a data folder its user cannot reach', () => {
  let scratch: string;
  let privateHome: string;
  let dataDir: string;
  let home: string;

  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'uptime-pg-root-'));
    chmodSync(scratch, 0o755);
    privateHome = path.join(scratch, 'root');
    mkdirSync(privateHome, { mode: 0o700 });
    chmodSync(privateHome, 0o700);
    dataDir = path.join(privateHome, 'uptime', '.data');
    // EMBEDDED_POSTGRES_DIR, made by a person with a mode of their choosing.
    home = path.join(scratch, 'embedded');
    mkdirSync(home);
    chmodSync(home, 0o751);
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  async function startAndStop(): Promise<{ where: string; rows: unknown[] }> {
    const release = claimDataDir(dataDir);
    try {
      const server = await startEmbeddedPostgres(dataDir, () => undefined, home);
      try {
        await query(server.url, 'CREATE TABLE IF NOT EXISTS kept (n int)');
        await query(server.url, 'INSERT INTO kept VALUES (1)');
        return { where: server.where, rows: await query(server.url, 'SELECT n FROM kept') };
      } finally {
        await server.stop();
      }
    } finally {
      release();
    }
  }

  it('keeps the cluster where that user can reach it, linked from the data folder, across a restart', async () => {
    const first = await startAndStop();
    if (!isRoot) {
      // Not root: the server runs as this user, who can enter the folder; nothing moves.
      expect(first.where).toBe(`data in ${dataDir}/postgres`);
      expect(lstatSync(path.join(dataDir, 'postgres')).isDirectory()).toBe(true);
      return;
    }
    const cluster = readlinkSync(path.join(dataDir, 'postgres'));
    expect(path.dirname(cluster)).toBe(home);
    expect(path.basename(cluster)).toMatch(/^cluster-/);
    // The checkout's binaries are copied only when its user cannot reach them either.
    const closedCheckout = checkoutClosedAt();
    const binaries = readdirSync(home).filter((f) => f.startsWith('postgres-'));
    expect(binaries).toHaveLength(closedCheckout ? 1 : 0);
    const copied = closedCheckout ? `, binaries in ${path.join(home, binaries[0]!)}` : '';
    expect(first.where).toBe(`data in ${dataDir}/postgres -> ${cluster}${copied} (the user "postgres" it runs as cannot enter ${closedCheckout ?? privateHome})`);
    expect(readdirSync(home).sort()).toEqual([path.basename(cluster), ...binaries].sort());

    const second = await startAndStop();
    expect(second.where).toBe(first.where);
    expect(second.rows).toEqual([{ n: 1 }, { n: 1 }]);

    // Neither the private folder nor EMBEDDED_POSTGRES_DIR changed mode.
    expect(statSync(privateHome).mode & 0o7777).toBe(0o700);
    expect(statSync(home).mode & 0o7777).toBe(0o751);
  });

  it('does not start an empty database when the folder the link points to is gone', async () => {
    if (!isRoot) return expect((await startAndStop()).rows).toEqual([{ n: 1 }]);
    await startAndStop();
    const cluster = readlinkSync(path.join(dataDir, 'postgres'));
    renameSync(cluster, `${cluster}.moved`);
    const release = claimDataDir(dataDir);
    try {
      const started = startEmbeddedPostgres(dataDir, () => undefined, home);
      await expect(started).rejects.toThrow(EmbeddedDatabaseError);
      await expect(started).rejects.toThrow(`${dataDir}/postgres links to ${cluster}, which is gone`);
    } finally {
      release();
    }
  });
});
