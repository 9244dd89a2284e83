import type { Response } from 'express';
import { requestIdOf } from './request-context';

export interface Meta {
  timestamp: string;
  request_id: string;
  [extra: string]: unknown;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
  has_next: boolean;
  has_prev: boolean;
}

export function metaFor(res: Response, extra: Record<string, unknown> = {}): Meta {
  return { timestamp: new Date().toISOString(), request_id: requestIdOf(res), ...extra };
}

/** `{ data, meta }` (docs/api.md). */
export function sendData(res: Response, data: unknown, status = 200, extraMeta: Record<string, unknown> = {}): void {
  res.status(status).json({ data, meta: metaFor(res, extraMeta) });
}

/** `{ data: [...], pagination, meta }` with all six pagination fields. */
export function sendList(res: Response, data: unknown[], page: { page: number; limit: number; total: number }, beside?: Record<string, unknown>): void {
  const pages = Math.ceil(page.total / page.limit);
  const pagination: Pagination = {
    page: page.page,
    limit: page.limit,
    total: page.total,
    pages,
    has_next: page.page < pages,
    has_prev: page.page > 1,
  };
  res.status(200).json({ data, pagination, ...beside, meta: metaFor(res) });
}

/** `{ message, data?, meta }` for actions. */
export function sendMessage(res: Response, message: string, data?: unknown, status = 200): void {
  res.status(status).json(data === undefined ? { message, meta: metaFor(res) } : { message, data, meta: metaFor(res) });
}
