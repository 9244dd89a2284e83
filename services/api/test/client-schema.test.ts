import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOpenApiDocument } from '../src/openapi/document';

jest.setTimeout(60_000);

// Here, not in packages/client: the client is generated from this service's document as data
// (packages/client/src/generate/main.ts) and never imports its source.
const CLIENT = path.resolve(__dirname, '../../../packages/client');
const SCHEMA = path.join(CLIENT, 'src/schema.d.ts');
const BOUNDS = path.join(CLIENT, 'src/body-bounds.ts');

describe('packages/client/src/schema.d.ts and body-bounds.ts', () => {
  let dir: string;
  let documentFile: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'uptime-client-'));
    documentFile = path.join(dir, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(buildOpenApiDocument()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The generator itself, as `pnpm --filter @uptime/client generate` runs it (openapi-typescript is ESM-only inside, so not in jest). */
  const check = (schema: string, bounds = BOUNDS) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/generate/main.ts', documentFile, '--check', schema, bounds], { cwd: CLIENT, encoding: 'utf8' });

  it('are what the current OpenAPI document generates (else run `pnpm --filter @uptime/client generate`)', () => {
    const result = check(SCHEMA);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(SCHEMA, 'utf8')).toContain('"/api/v1/monitors/{id}"');
    expect(readFileSync(BOUNDS, 'utf8')).toContain('"MaintenanceWindowCreate": {');
  });

  it('is reported stale when it differs from the document', () => {
    const stale = path.join(dir, 'schema.d.ts');
    writeFileSync(stale, readFileSync(SCHEMA, 'utf8').replace('alert_threshold: number;', 'alert_threshold: string;'));
    const result = check(stale);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is stale');
  });

  it('reports the bounds stale when a bound differs from the document', () => {
    const stale = path.join(dir, 'body-bounds.ts');
    writeFileSync(stale, readFileSync(BOUNDS, 'utf8').replace('"maximum": 10080', '"maximum": 10081'));
    const result = check(SCHEMA, stale);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`${stale} is stale: run pnpm --filter @uptime/client generate\n`);
  });

  it('is generated from what the API serves: `pnpm --filter @uptime/api openapi` prints the same document', () => {
    const result = spawnSync('pnpm', ['--silent', '--filter', '@uptime/api', 'openapi'], { cwd: CLIENT, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(buildOpenApiDocument());
  });
});
