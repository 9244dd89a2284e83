import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/** An incoming id that is kept; anything else is replaced by a UUID (which also matches). */
export const INCOMING_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The request's id (a sane incoming `X-Request-Id` is kept), noted in `res.locals` and echoed back. */
export function assignRequestId(req: IncomingMessage, res: Response): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Gives every request an id (a sane incoming `X-Request-Id` is kept) and echoes it back. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  assignRequestId(req, res);
  next();
}

export function requestIdOf(res: Response): string {
  return String(res.locals.requestId ?? '');
}
