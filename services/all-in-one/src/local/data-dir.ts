import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from './reachable';

/** The repository root: `.data/` there is where a local run keeps its data unless DATA_DIR says otherwise. */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');

export function resolveDataDir(configured: string | undefined): string {
  return path.resolve(configured ?? path.join(REPO_ROOT, '.data'));
}

/** Another live process runs the embedded services of this data folder. */
export class DataDirInUseError extends Error {}

const ownerFile = (dataDir: string): string => path.join(dataDir, 'owner.pid');

/** The live process that runs this data folder's embedded services, if any. */
export function dataDirOwner(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(ownerFile(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes this process the one that runs the data folder's embedded Postgres and Redis, so a second
 * `pnpm start` says the folder is in use instead of starting a second server on the same files.
 * An owner that died without cleaning up (kill -9) does not count. Returns the release function.
 */
export function claimDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const owner = dataDirOwner(dataDir);
  if (owner !== undefined) {
    throw new DataDirInUseError(
      `The data folder ${dataDir} is in use by process ${owner} (another \`pnpm start\`?): stop that one first, or set DATA_DIR to another folder.`,
    );
  }
  writeFileSync(ownerFile(dataDir), `${process.pid}\n`);
  return () => {
    if (dataDirOwner(dataDir) === undefined) rmSync(ownerFile(dataDir), { force: true });
  };
}
