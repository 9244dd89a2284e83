import { readFileSync, writeFileSync } from 'node:fs';
import { renderSchema, SCHEMA_FILE } from './render-schema';

/**
 * `pnpm --filter @uptime/client generate`: writes src/schema.d.ts. With `--check [file]` it only
 * says (exit 1) whether the file (default src/schema.d.ts) differs from what the document gives.
 */
async function main(): Promise<void> {
  const fresh = await renderSchema();
  const check = process.argv.indexOf('--check');
  if (check !== -1) {
    const file = process.argv[check + 1] ?? SCHEMA_FILE;
    if (readFileSync(file, 'utf8') !== fresh) {
      process.stderr.write(`${file} is stale: run pnpm --filter @uptime/client generate\n`);
      process.exit(1);
    }
    process.stdout.write(`${file} is current\n`);
    return;
  }
  writeFileSync(SCHEMA_FILE, fresh);
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
