import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback target that answers 200 and remembers when each monitor (path /m/{id}) was hit. */
export interface CountingTarget {
  url: string;
  /** monitor id → hit times (ms). */
  hits: Map<number, number[]>;
  total(): number;
  close(): Promise<void>;
}

export async function startCountingTarget(): Promise<CountingTarget> {
  const hits = new Map<number, number[]>();
  let total = 0;
  const server: Server = createServer((req, res) => {
    const m = /^\/m\/(\d+)/.exec(req.url ?? '');
    if (m) {
      const id = Number(m[1]);
      let list = hits.get(id);
      if (!list) hits.set(id, (list = []));
      list.push(Date.now());
      total += 1;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  server.keepAliveTimeout = 60_000;
  server.maxRequestsPerSocket = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    total: () => total,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
