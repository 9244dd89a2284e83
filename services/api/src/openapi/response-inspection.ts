import type { OutgoingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';

/** One answer as it leaves the app. */
export interface InspectedResponse {
  method: string;
  /**
   * The request path, without the query string; on a status page's own host, the path it was
   * served as (`/status/{slug}/...`, custom-domain-host.ts).
   */
  path: string;
  /** The 404 page a status page's own host answers to everything but the page: no operation of the document. */
  refusedOnPageHost: boolean;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** Sees every answer; the tests check each against the OpenAPI document. Must not throw. */
export type ResponseInspector = (response: InspectedResponse) => void;

type Chunk = string | Uint8Array | undefined | null;

const toBuffer = (chunk: Chunk, encoding: unknown): Buffer | undefined => {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return undefined;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk);
};

/**
 * Collects each answer's body and hands the whole answer to `inspect` when it ends, before it
 * is flushed: whoever reads the answer (a test) can count on the inspection having happened.
 * Mounted first, so it sees every answer, those of the error handler and the ops routes too.
 */
export function inspectResponses(inspect: ResponseInspector): RequestHandler {
  return (req, res, next) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.write = ((chunk: Chunk, ...rest: unknown[]) => {
      const buffer = toBuffer(chunk, rest[0]);
      if (buffer) chunks.push(buffer);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: Chunk, ...rest: unknown[]) => {
      const buffer = toBuffer(chunk, rest[0]);
      if (buffer) chunks.push(buffer);
      inspect({
        method: req.method,
        path: (res.locals.pageHostPath as string | undefined) ?? req.originalUrl.split('?')[0] ?? req.originalUrl,
        refusedOnPageHost: res.locals.refusedOnPageHost === true,
        status: res.statusCode,
        headers: res.getHeaders(),
        body: Buffer.concat(chunks),
      });
      return end(chunk, ...rest);
    }) as typeof res.end;
    next();
  };
}
