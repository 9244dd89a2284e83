import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiToken, generateApiToken, hashApiToken, User } from '@uptime/db';
// Relative imports: the root package depends on no workspace package it benches.
import { runCli } from '../packages/cli/src';
import { openBenchEnvironment } from './bench-environment';

/**
 * pnpm bench:config-as-code [-- --monitors 1000 --keep 1]
 * Times the `uptime` CLI (packages/cli) against the api app in this process, in a database of
 * its own: plan and apply of a file of N new monitors, plan and apply of the same file again
 * (no change), of a change of every monitor's interval, and apply --prune of an empty file
 * (bulk deletes). Prints a table and one JSON line (docs/config-as-code.md, "Benchmark").
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 1000);

function fileOf(interval: number): string {
  const lines = ['monitors:'];
  for (let i = 0; i < MONITORS; i++) {
    lines.push(`  - key: site-${i}`, `    name: Site ${i}`, '    type: http', `    url: https://site-${i}.example.test/health`, `    check_interval: ${interval}`, '    tags: [bench]');
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const env = await openBenchEnvironment('config_as_code');
  try {
    const user = await env.ds.getRepository(User).save({ email: `bench-${Date.now().toString(36)}@example.test`, name: 'Bench', role: 'user' });
    const token = generateApiToken();
    await env.ds.getRepository(ApiToken).save({ userId: user.id, name: 'bench', tokenHash: hashApiToken(token) });
    const origin = await env.listen();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'uptime-bench-cfg-'));
    const write = (name: string, text: string): string => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const first = write('first.yaml', fileOf(300));
    const changed = write('changed.yaml', fileOf(600));
    const empty = write('empty.yaml', 'monitors: []\n');

    const rows: { step: string; ms: number; exit: number; summary: string }[] = [];
    const run = async (step: string, argv: string[], expected: number): Promise<void> => {
      let out = '';
      let err = '';
      const started = performance.now();
      const exit = await runCli(argv, { env: { UPTIME_URL: origin, UPTIME_TOKEN: token }, out: (t) => (out += t), err: (t) => (err += t) });
      const ms = Math.round(performance.now() - started);
      if (exit !== expected) throw new Error(`${step}: exit ${exit}, expected ${expected}\n${err}`);
      const summary = (out.match(/^(Plan: .*|No changes.*|Applied: .*)$/gm) ?? []).join(' ');
      rows.push({ step, ms, exit, summary });
      process.stderr.write(`[bench] ${step}: ${ms} ms\n`);
    };
    await run(`plan, ${MONITORS} to create`, ['plan', '-f', first], 2);
    await run(`apply, ${MONITORS} to create`, ['apply', '-f', first], 0);
    await run('plan, no change', ['plan', '-f', first], 0);
    await run('apply, no change', ['apply', '-f', first], 0);
    await run(`plan, ${MONITORS} to change`, ['plan', '-f', changed], 2);
    await run(`apply, ${MONITORS} to change`, ['apply', '-f', changed], 0);
    await run(`apply --prune, ${MONITORS} to delete`, ['apply', '-f', empty, '--prune', '--yes'], 0);
    for (const r of rows) console.log(`${r.step.padEnd(34)} ${String(r.ms).padStart(7)} ms   ${r.summary}`);
    console.log(JSON.stringify({ monitors: MONITORS, cpus: os.cpus().length, steps: rows.map(({ step, ms }) => ({ step, ms })) }));
  } finally {
    await env.close(args.has('keep'));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
