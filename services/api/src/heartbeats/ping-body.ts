import type { Request } from 'express';

/** The most of a ping's body kept with it (docs/heartbeats.md); the rest is counted, not kept. */
export const PING_BODY_KEPT_BYTES = 10 * 1024;
/** Past this a ping's body is not read further: the ping is refused (413). */
export const PING_BODY_MAX_BYTES = 1024 * 1024;

export interface PingBody {
  /**
   * The first PING_BODY_KEPT_BYTES as UTF-8 text (a character cut in two is replaced, and so is a
   * NUL, which a Postgres text cannot hold: U+FFFD); null: no body.
   */
  text: string | null;
  size: number;
  truncated: boolean;
}

export class PingBodyTooLargeError extends Error {}

/** Reads a ping's body: keeps its start, counts all of it, and stops past PING_BODY_MAX_BYTES. */
export function readPingBody(req: Request): Promise<PingBody> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > PING_BODY_MAX_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(new PingBodyTooLargeError(`a ping's body is at most ${PING_BODY_MAX_BYTES} bytes`));
        return;
      }
      if (keptBytes < PING_BODY_KEPT_BYTES) {
        const part = chunk.subarray(0, PING_BODY_KEPT_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    });
    req.on('end', () => resolve({ text: size === 0 ? null : Buffer.concat(kept).toString('utf8').replace(/\0/g, '\uFFFD'), size, truncated: size > keptBytes }));
    req.on('error', reject);
  });
}
