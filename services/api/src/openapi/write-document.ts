import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './document';

/**
 * `pnpm --filter @uptime/api --silent openapi [file]`: the OpenAPI document the API serves at
 * GET /api/v1/openapi.json, written to `file` or to stdout. packages/client generates its types
 * from this output, so the client never imports the API's source.
 */
const json = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const file = process.argv[2];
if (file === undefined) process.stdout.write(json);
else writeFileSync(file, json);
