import 'reflect-metadata';
import { runHotQueryHarness, scratchDatabaseUrl } from './hot-queries/harness';
import { jsonSummary, markdownTable, textReport } from './hot-queries/report';
import { seedSizeFor } from './hot-queries/seed';

/**
 * pnpm bench:explain [-- --monitors 30000 --markdown 1]
 * Every hot query checked with EXPLAIN: seeds a production-shaped data set (a user with
 * `--monitors` monitors at 30 s, a second with five, results in daily partitions, rollups,
 * incidents, tokens) in a database of its own (uptime_explain_*), runs each hot path through the
 * product's own functions with every statement explained (ANALYZE, BUFFERS) where it runs, and
 * prints a report per path, optionally a markdown table, then one JSON line. Drops the database
 * and its Redis keys at the end.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 30_000);

async function main(): Promise<void> {
  const databaseUrl = scratchDatabaseUrl(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const result = await runHotQueryHarness({
    databaseUrl,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: new URL(databaseUrl).pathname.slice(1),
    size: seedSizeFor(MONITORS),
    log: (line) => void process.stderr.write(`[bench] ${line}\n`),
  });
  process.stdout.write(`${textReport(result)}\n`);
  if (args.has('markdown')) process.stdout.write(`\n${markdownTable(result)}\n`);
  process.stdout.write(`\n${JSON.stringify(jsonSummary(result))}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
