import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildConfigFileSchema } from './config-file-schema';

/**
 * `pnpm --filter @uptime/api --silent config-schema [file]`: the JSON Schema of uptime.yaml the
 * API serves at GET /api/v1/config.schema.json, written to `file` or to stdout. packages/cli
 * keeps a copy (`pnpm --filter @uptime/cli generate`) for `uptime validate --offline`.
 */
const json = `${JSON.stringify(buildConfigFileSchema(), null, 2)}\n`;
const file = process.argv[2];
if (file === undefined) process.stdout.write(json);
else writeFileSync(file, json);
