import { createServer } from 'node:net';

/** A TCP port nothing listens on right now at `host`, for a server this process is about to start. */
export function freePortOn(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
