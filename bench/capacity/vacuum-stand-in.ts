import { Client } from 'pg';

/** What the harness found, and did, about autovacuum on the Postgres it runs against. */
export interface VacuumStandIn {
  /** `on`: the server's own autovacuum ran; `stood in`: it was off, and the harness vacuumed instead. */
  readonly autovacuum: 'on' | 'stood in';
  /** The stand-in's rounds, and the slowest one in seconds (0 and 0 when autovacuum is on). */
  readonly rounds: () => { count: number; slowestSeconds: number };
  stop(): Promise<void>;
}

/** autovacuum_naptime's default: each database is visited once a minute. */
const ROUND_MS = 60_000;

/**
 * Every installation the product supports runs Postgres with autovacuum on (the stock default, as
 * in docker-compose.yml's image and `pnpm start`'s embedded server), which keeps the planner's
 * statistics up to date and the dead row versions of updates in check. A CI machine's server may
 * run with it off. Measured there as is, `monitors` was never analysed: the planner estimated 42
 * rows for the owner of 30,000 and read all of them to sort a page of 25 (40–50 ms instead of 1),
 * and the dead row versions piled up for the whole run.
 *
 * So, when the server's autovacuum is off, the harness stands in for it in the run's database:
 * a round at the start and then once a minute, `VACUUM (ANALYZE)` of every table with
 * autovacuum's own throttle (vacuum_cost_delay 2 ms, vacuum_cost_limit 200), so its cost shows in
 * Postgres's CPU as the real one's would. The report names which of the two ran.
 */
export async function startVacuumStandIn(databaseUrl: string): Promise<VacuumStandIn> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'bench-vacuum-stand-in' });
  await client.connect();
  const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
  if (rows[0]?.autovacuum === 'on') {
    await client.end();
    return { autovacuum: 'on', rounds: () => ({ count: 0, slowestSeconds: 0 }), stop: async () => undefined };
  }
  await client.query(`SET vacuum_cost_delay = '2ms'`);
  await client.query('SET vacuum_cost_limit = 200');
  let count = 0;
  let slowestSeconds = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const round = async (): Promise<void> => {
    const started = performance.now();
    await client.query('VACUUM (ANALYZE)');
    count += 1;
    slowestSeconds = Math.max(slowestSeconds, (performance.now() - started) / 1000);
  };
  const loop = (): void => {
    running = round()
      .catch((err: unknown) => {
        if (!stopped) process.stderr.write(`[bench] vacuum stand-in: ${(err as Error).message}\n`);
      })
      .then(() => {
        if (!stopped) timer = setTimeout(loop, ROUND_MS);
      });
  };
  loop();
  return {
    autovacuum: 'stood in',
    rounds: () => ({ count, slowestSeconds }),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await client.end();
    },
  };
}
