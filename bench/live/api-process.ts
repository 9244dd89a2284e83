import 'reflect-metadata';
import { aCaller } from '../../packages/testing/src';
import { openBenchEnvironment } from '../bench-environment';

/**
 * The api alone in a process of its own, so that bench/live-streams.ts reads its CPU and memory
 * and nothing else's: prints one JSON line {url, prefix, callers: [{auth, organization_id}]},
 * then serves until its stdin closes.
 */
async function main(): Promise<void> {
  const organizations = Number(process.argv[2] ?? '1');
  const env = await openBenchEnvironment('live');
  const url = await env.listen();
  const callers: { auth: string; organization_id: number }[] = [];
  for (let i = 0; i < organizations; i++) {
    const { user, auth } = await aCaller(env.ds);
    const [row] = (await env.ds.query('SELECT organization_id FROM organization_members WHERE user_id = $1', [user.id])) as { organization_id: number }[];
    callers.push({ auth, organization_id: row!.organization_id });
  }
  process.stdout.write(`${JSON.stringify({ url, prefix: env.config.redis.queuePrefix, callers })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void env.close(false).then(() => process.exit(0)));
}

void main();
