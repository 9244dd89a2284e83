import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(60_000);

const PACKAGE = path.resolve(__dirname, '..');
const SCHEMA = path.join(PACKAGE, 'src/schema.d.ts');

/** The generator itself, as `pnpm --filter @uptime/client generate` runs it (openapi-typescript is ESM-only inside, so not in jest). */
const check = (file: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/generate/main.ts', '--check', file], { cwd: PACKAGE, encoding: 'utf8' });

describe('packages/client/src/schema.d.ts', () => {
  it('is what the current OpenAPI document generates (else run `pnpm --filter @uptime/client generate`)', () => {
    const result = check(SCHEMA);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(SCHEMA, 'utf8')).toContain('"/api/v1/monitors/{id}"');
  });

  it('is reported stale when it differs from the document', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'uptime-client-'));
    try {
      const stale = path.join(dir, 'schema.d.ts');
      writeFileSync(stale, readFileSync(SCHEMA, 'utf8').replace('alert_threshold: number;', 'alert_threshold: string;'));
      const result = check(stale);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('is stale');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
