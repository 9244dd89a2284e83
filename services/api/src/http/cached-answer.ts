import type { Request, Response } from 'express';

export interface CachedAnswer {
  /** A quoted entity tag, weak (`W/"…"`) when the bytes vary around the same content. */
  etag: string;
  /** Seconds a browser or proxy may keep it (PUBLIC_CACHE_SECONDS). */
  maxAge: number;
  contentType: string;
  body: string | Buffer;
  /** Set for a body stored compressed: its Content-Encoding. */
  encoding?: 'gzip';
  status?: number;
}

/**
 * A public read with `Cache-Control` and `ETag`; a request whose `If-None-Match` names the tag
 * gets a 304 without a body.
 */
export function sendCached(req: Request, res: Response, answer: CachedAnswer): void {
  const status = answer.status ?? 200;
  res.setHeader('Cache-Control', `public, max-age=${answer.maxAge}`);
  res.setHeader('ETag', answer.etag);
  if (answer.encoding) res.setHeader('Content-Encoding', answer.encoding);
  if (status === 200 && req.fresh) {
    res.status(304).end();
    return;
  }
  res.status(status).type(answer.contentType).send(answer.body);
}
