import { spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfigOrExit } from '@uptime/config';
import { claimDataDir, dataDirOwner, REPO_ROOT, resolveDataDir } from './local/data-dir';
import { runningEmbeddedPostgres, startEmbeddedPostgres, type LocalServer } from './local/embedded-postgres';
import { answers } from './local/reachable';

/**
 * `pnpm cli` and `pnpm db:migrate`: runs the script given as first argument against the same
 * database `pnpm start` uses, without being told. DATABASE_URL or a Postgres at the default
 * address is used as is; otherwise the embedded one of DATA_DIR, started for the length of the
 * command when no `pnpm start` is running it.
 */
async function main(): Promise<number> {
  const [script, ...args] = process.argv.slice(2);
  if (!script) {
    process.stderr.write('usage: with-database.ts <script.ts> [arguments]\n');
    return 2;
  }
  const config = loadConfigOrExit();
  let databaseUrl = config.databaseUrl;
  let started: LocalServer | undefined;
  let release = (): void => undefined;
  if (!config.local?.databaseUrlSet && !(await answers(config.databaseUrl))) {
    const dataDir = resolveDataDir(config.local?.dataDir);
    const running = dataDirOwner(dataDir) !== undefined ? runningEmbeddedPostgres(dataDir) : undefined;
    if (running) databaseUrl = running.url;
    else {
      release = claimDataDir(dataDir);
      process.stderr.write(`starting the embedded PostgreSQL in ${dataDir}/postgres for this command\n`);
      started = await startEmbeddedPostgres(dataDir, () => undefined, config.local?.embeddedPostgresDir);
      databaseUrl = started.url;
    }
  }
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(REPO_ROOT, script), ...args], {
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return await new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  } finally {
    await started?.stop();
    release();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
