import { readFileSync, writeFileSync } from 'node:fs';
import { BOUNDS_FILE, renderBounds } from './render-bounds';
import { renderSchema, SCHEMA_FILE } from './render-schema';

/**
 * `tsx src/generate/main.ts <document.json | -> [--check [schema file] [bounds file]]`: writes
 * src/schema.d.ts (the types) and src/body-bounds.ts (the request bodies' bounds) from the OpenAPI
 * document in the file (`-`: stdin). With `--check` it only says (exit 1) whether the files
 * (default the two above) differ from what the document gives.
 *
 * The document comes in as data, not as an import of the API's source: `pnpm --filter
 * @uptime/client generate` pipes the API's own script (services/api/src/openapi/write-document.ts)
 * into this one, and services/api/test/client-schema.test.ts checks the files are current.
 */
async function main(): Promise<void> {
  const [source, ...rest] = process.argv.slice(2);
  if (source === undefined || source === '--check') throw new Error('usage: main.ts <document.json | -> [--check [schema file] [bounds file]]');
  const document = JSON.parse(readFileSync(source === '-' ? 0 : source, 'utf8')) as object;
  const outputs: [string, string][] = [
    [SCHEMA_FILE, await renderSchema(document)],
    [BOUNDS_FILE, renderBounds(document)],
  ];
  const check = rest.indexOf('--check');
  if (check !== -1) {
    const files = [rest[check + 1] ?? SCHEMA_FILE, rest[check + 2] ?? BOUNDS_FILE];
    const stale = files.filter((file, i) => readFileSync(file, 'utf8') !== outputs[i]![1]);
    for (const file of stale) process.stderr.write(`${file} is stale: run pnpm --filter @uptime/client generate\n`);
    if (stale.length > 0) process.exit(1);
    process.stdout.write(`${files.join(' and ')} are current\n`);
    return;
  }
  for (const [file, fresh] of outputs) {
    writeFileSync(file, fresh);
    process.stdout.write(`wrote ${file}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
