import { Worker } from 'node:worker_threads';

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Latencies in milliseconds, one per answered request. */
  latencies: number[];
  /** Answers by status. */
  statuses: Record<string, number>;
}

/**
 * The load generator's code, run in a worker thread so it has an event loop (and a core) of its
 * own beside the server's: `concurrency` keep-alive connections, each sending its next request
 * as soon as the previous answer is read, for `seconds`. Plain JavaScript, so it needs no loader.
 */
const WORKER = `
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { parentPort, workerData } = require('node:worker_threads');
const { url, concurrency, seconds, headers } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const latencies = [];
const statuses = {};
const end = performance.now() + seconds * 1000;
const once = () => new Promise((resolve, reject) => {
  const started = performance.now();
  const req = http.get(url, { agent, headers }, (res) => {
    res.on('data', () => {});
    res.on('end', () => {
      latencies.push(performance.now() - started);
      statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
      resolve();
    });
  });
  req.on('error', reject);
});
const loop = async () => { while (performance.now() < end) await once(); };
const started = performance.now();
Promise.all(Array.from({ length: concurrency }, loop)).then(() => {
  agent.destroy();
  parentPort.postMessage({ requests: latencies.length, seconds: (performance.now() - started) / 1000, latencies, statuses });
}, (err) => { throw err; });
`;

/** Runs the closed loop against `url` and returns what it measured. */
export function runClosedLoop(url: string, options: { concurrency: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { url, headers: {}, ...options } });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
  });
}
