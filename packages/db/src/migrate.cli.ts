import { loadConfigOrExit } from '@uptime/config';
import { openDatabase } from './data-source';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const dataSource = await openDatabase(config.databaseUrl, { poolSize: 2, applicationName: 'uptime-migrate' });
  const applied = await dataSource.query('SELECT name FROM migrations ORDER BY id');
  process.stdout.write(`migrations applied: ${applied.map((r: { name: string }) => r.name).join(', ')}\n`);
  await dataSource.destroy();
}

main().catch((err: unknown) => {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
