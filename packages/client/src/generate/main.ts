import { readFileSync, writeFileSync } from 'node:fs';
import { renderSchema, SCHEMA_FILE } from './render-schema';

/**
 * `tsx src/generate/main.ts <document.json | -> [--check [file]]`: writes src/schema.d.ts from the
 * OpenAPI document in the file (`-`: stdin). With `--check [file]` it only says (exit 1) whether
 * the file (default src/schema.d.ts) differs from what the document gives.
 *
 * The document comes in as data, not as an import of the API's source: `pnpm --filter
 * @uptime/client generate` pipes the API's own script (services/api/src/openapi/write-document.ts)
 * into this one, and services/api/test/client-schema.test.ts checks the file is current.
 */
async function main(): Promise<void> {
  const [source, ...rest] = process.argv.slice(2);
  if (source === undefined || source === '--check') throw new Error('usage: main.ts <document.json | -> [--check [file]]');
  const document = JSON.parse(readFileSync(source === '-' ? 0 : source, 'utf8')) as object;
  const fresh = await renderSchema(document);
  const check = rest.indexOf('--check');
  if (check !== -1) {
    const file = rest[check + 1] ?? SCHEMA_FILE;
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
