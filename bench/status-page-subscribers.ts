import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
// Relative imports: the root package depends on no service; the bench runs their code in-process.
import { createApp } from '../services/api/src';
import { startNotifier } from '../services/notifier/src';
import { loadConfig } from '../packages/config/src';
import { ApiToken, generateApiToken, hashApiToken, Monitor, openDatabase, User } from '@uptime/db';
import { createLogger } from '../packages/logger/src';
import { createRedisConnection, MonitorScheduler } from '../packages/queues/src';
import { startFakeSendGrid } from '../packages/testing/src';
import { releaseBenchResources } from './bench-resources';

/**
 * pnpm bench:subscribers [-- --subscribers 1000 --left 100 --notifiers 1]
 * A status page with `subscribers` confirmed email subscribers and `left` who unsubscribed, in a
 * database and Redis prefix of its own. The api app and `notifiers` notifiers run in this
 * process; SendGrid is a local fake. Posts one incident update and measures the time from the
 * API's answer to the last email accepted by the fake, and checks that each subscriber got it
 * exactly once and none who left did (docs/status-pages.md, "Subscribers"). Prints one JSON line.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const SUBSCRIBERS = Number(args.get('subscribers') ?? 1000);
const LEFT = Number(args.get('left') ?? 100);
const NOTIFIERS = Number(args.get('notifiers') ?? 1);
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  const runId = Date.now().toString(36);
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/uptime_bench_subscribers_${runId}`;
  const prefix = `uptime_bench_subscribers_${runId}`;
  const sendgrid = await startFakeSendGrid();
  const config = loadConfig({
    DATABASE_URL: base.toString(),
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_HOUR: '0',
    SENDGRID_API_KEY: sendgrid.apiKey,
    SENDGRID_API_URL: sendgrid.url,
  });
  const ds = await openDatabase(config.databaseUrl, { poolSize: 10, applicationName: 'bench-subscribers' });
  const redis = createRedisConnection(config.redis.url, 'bench-subscribers');
  const scheduler = new MonitorScheduler(redis, prefix);
  const logger = createLogger({ level: 'silent', service: 'bench' });
  const notifiers = [];
  let server: Server | undefined;
  try {
    for (let i = 0; i < NOTIFIERS; i += 1) notifiers.push(await startNotifier({ config, dataSource: ds, logger }));
    const user = await ds.getRepository(User).save({ email: `bench-${runId}@example.test`, name: 'Bench', role: 'user' });
    const token = generateApiToken();
    await ds.getRepository(ApiToken).save({ userId: user.id, name: 'bench', tokenHash: hashApiToken(token) });
    const monitor = await ds
      .getRepository(Monitor)
      .save({
        ownerId: user.id,
        name: 'Shop',
        url: 'https://shop.example.test/',
        timeout: 30,
        checkInterval: 60,
        status: 'online' as const,
      });
    const app = createApp({ config, dataSource: ds, redis, scheduler, logger });
    const origin = await new Promise<string>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`));
    });
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const page = (await (
      await fetch(`${origin}/api/v1/status-pages`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ slug: 'bench', title: 'Bench', monitor_ids: [monitor.id] }),
      })
    ).json()) as { data: { id: number } };
    await ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, confirmed_at, unsubscribe_token)
       SELECT $1, 'sub' || n || '@example.test', 'confirmed', now() - interval '1 minute', md5('u' || n) FROM generate_series(1, $2::int) n`,
      [page.data.id, SUBSCRIBERS],
    );
    await ds.query(
      `INSERT INTO status_page_subscribers (status_page_id, email, status, unsubscribed_at, unsubscribe_token)
       SELECT $1, 'gone' || n || '@example.test', 'unsubscribed', now(), md5('g' || n) FROM generate_series(1, $2::int) n`,
      [page.data.id, LEFT],
    );
    const incident = (await (
      await fetch(`${origin}/api/v1/status-pages/${page.data.id}/incidents`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ title: 'Warm-up', impact: 'minor', message: 'Warming up' }),
      })
    ).json()) as { data: { id: number } };
    while (sendgrid.mails.length < SUBSCRIBERS) await new Promise((r) => setTimeout(r, 20));
    sendgrid.mails.length = 0;

    const started = Date.now();
    const res = await fetch(`${origin}/api/v1/status-pages/${page.data.id}/incidents/${incident.data.id}/updates`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ status: 'identified', message: 'Found it' }),
    });
    if (res.status !== 201) throw new Error(`the update answered ${res.status}: ${await res.text()}`);
    const answeredMs = Date.now() - started;
    let firstMs: number | null = null;
    while (sendgrid.mails.length < SUBSCRIBERS) {
      if (firstMs === null && sendgrid.mails.length > 0) firstMs = Date.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
    const lastMs = Date.now() - started;
    // Anything more would be a duplicate or an email to someone who left: give it a moment to show.
    await new Promise((r) => setTimeout(r, 2000));
    const addresses = sendgrid.mails.map((m) => m.to);
    const result = {
      subscribers: SUBSCRIBERS,
      left: LEFT,
      notifiers: NOTIFIERS,
      emails: addresses.length,
      distinct: new Set(addresses).size,
      toLeft: addresses.filter((a) => a.startsWith('gone')).length,
      apiAnswerMs: answeredMs,
      firstEmailMs: firstMs,
      lastEmailMs: lastMs,
    };
    console.log(JSON.stringify(result));
  } finally {
    for (const n of notifiers) await n.close();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await sendgrid.close();
    await releaseBenchResources({ databaseUrl: base, prefix, ds, redis, scheduler }, args.has('keep'), log);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
