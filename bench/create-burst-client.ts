import { performance } from 'node:perf_hooks';

/**
 * The requests of bench/create-burst.ts, in a process of their own so that the process serving
 * them is measured alone. argv: api token first count concurrency batch. A batch of 0 sends one
 * `POST /monitors` a monitor; a batch of n sends `POST /monitors/bulk/create` with n bodies.
 * Prints one JSON line: seconds, each request's latency (ms), answers 503 retried.
 */
const [api, token, firstArg, countArg, concurrencyArg, batchArg] = process.argv.slice(2);
const FIRST = Number(firstArg);
const COUNT = Number(countArg);
const CONCURRENCY = Number(concurrencyArg);
const BATCH = Number(batchArg);

const bodyOf = (i: number): Record<string, unknown> => ({
  name: `m${i}`,
  url: `http://127.0.0.1:9/${i}`,
  type: 'http',
  check_interval: 30,
  timeout: 10,
});

async function main(): Promise<void> {
  const latencies: number[] = [];
  const requests: number[][] = [];
  const size = Math.max(1, BATCH);
  for (let i = FIRST; i < FIRST + COUNT; i += size)
    requests.push(Array.from({ length: Math.min(size, FIRST + COUNT - i) }, (_, k) => i + k));
  let next = 0;
  let unavailable = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const ids = requests[next++]!;
        const t = performance.now();
        const [path, body] = BATCH === 0 ? ['/monitors', bodyOf(ids[0]!)] : ['/monitors/bulk/create', { monitors: ids.map(bodyOf) }];
        // The app's dependency gate answers 503 while its last look at Redis timed out (seen on
        // the loaded shared machine): retried, and counted.
        for (let attempt = 1; ; attempt += 1) {
          const res = await fetch(`${api}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const text = await res.text();
          if (res.status === 201) break;
          if (res.status !== 503 || attempt === 10) throw new Error(`create answered ${res.status}: ${text.slice(0, 300)}`);
          unavailable += 1;
          await new Promise((r) => setTimeout(r, 100));
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - start) / 1000, latencies, unavailable })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
