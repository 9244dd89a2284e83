import express, { type RequestHandler } from 'express';
import { DomainError } from '@uptime/errors';

const parseJson = express.json({ limit: '1mb', strict: false, type: () => true });

/**
 * JSON bodies only (docs/errors.md): a body with another content type is 415, one over 1 MiB is
 * 413, malformed JSON is 400 (the error handler maps body-parser's errors).
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return next();
  if (!req.is('application/json') && !req.is('application/*+json')) {
    return next(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be JSON (Content-Type: application/json)'));
  }
  return parseJson(req, res, next);
};
