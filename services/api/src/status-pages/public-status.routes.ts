import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { DomainError } from '@uptime/errors';
import { sendCached } from '../http/cached-answer';
import { metaFor } from '../http/envelope';
import { malformedEscapeAnswers } from '../http/malformed-escape';
import type { CacheFill, PublicCache } from '../http/public-cache';
import type { UptimeSource } from '../monitor-stats/uptime.repository';
import { readPublicStatusPage } from './public-status';
import { SLUG_PATTERN } from './status-page.dto';
import { renderPageNotFound, renderStatusPage, STATUS_PAGE_CSS_PATH } from './status-page.html';

export interface PublicStatusDeps {
  source: UptimeSource;
  cache: PublicCache;
  /** The per-IP limit of public reads (PUBLIC_RATE_LIMIT_PER_MINUTE); undefined when off. */
  limiter?: RequestHandler;
}

const CSS = readFileSync(path.join(__dirname, 'status-page.css'), 'utf8');
const hashOf = (text: string): string => createHash('sha1').update(text).digest('base64url');
const CSS_ETAG = `"${hashOf(CSS)}"`;
const DATA_OPEN = Buffer.from('{"data":');

/** What a page's cache entry holds: its public JSON and its HTML, gzipped, each with a version (a hash, its entity tag). */
type PageField = 'found' | 'json_version' | 'json' | 'html_version' | 'html_gz';
type PageEntry = Record<PageField, Buffer>;

/** An unknown or unpublished slug, cached too: a flood of made-up slugs costs Postgres no more than a real page. */
const NO_PAGE: Record<PageField, string> = { found: '0', json_version: '', json: '', html_version: '', html_gz: '' };

/**
 * Reads the JSON or the HTML of a page's cache entry. The HTML is kept only gzipped: a
 * page of 50 monitors is ~450 kB of HTML and ~7 kB gzipped, which is what Redis holds and the
 * network carries for browsers.
 */
async function readPageEntry(deps: PublicStatusDeps, slug: string, representation: 'json' | 'html'): Promise<PageEntry | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  const fields: readonly PageField[] = representation === 'json' ? ['found', 'json_version', 'json'] : ['found', 'html_version', 'html_gz'];
  const entry = await deps.cache.read(deps.cache.keyOf('page', slug), fields, async (): Promise<CacheFill> => {
    const page = await readPublicStatusPage(deps.source, slug);
    if (!page) return NO_PAGE;
    const json = JSON.stringify(page);
    const html = renderStatusPage(page);
    return { found: '1', json_version: hashOf(json), json, html_version: hashOf(html), html_gz: gzipSync(html) };
  });
  return entry.found!.toString() === '1' ? (entry as PageEntry) : undefined;
}

/** `GET /api/v1/public/status-pages/{slug}`: the published page as JSON, no caller needed. */
export function publicStatusApiRouter(deps: PublicStatusDeps): Router {
  const router = Router();
  if (deps.limiter) router.use(deps.limiter);
  router.get('/status-pages/:slug', async (req, res) => {
    const entry = await readPageEntry(deps, req.params.slug, 'json');
    if (!entry) throw new DomainError('NOT_FOUND', 'Status page not found');
    // The data is cached as JSON bytes and framed here, so meta stays per request; hence a weak tag.
    const body = Buffer.concat([DATA_OPEN, entry.json, Buffer.from(`,"meta":${JSON.stringify(metaFor(res))}}`)]);
    sendCached(req, res, { etag: `W/"${entry.json_version.toString()}"`, maxAge: deps.cache.ttlSeconds, contentType: 'application/json', body });
  });
  return router;
}

/**
 * The page's own CSP: no script at all, styles only from the stylesheet route, nothing else
 * loaded. It replaces the app's default CSP on /status.
 */
const pageSecurity = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'none'"],
      'style-src': ["'self'"],
      'img-src': ["'self'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'self'"],
    },
  },
});

/** `/status/{slug}`: the published page as server-rendered HTML, and its stylesheet. */
export function statusPageHtmlRouter(deps: PublicStatusDeps): Router {
  const router = Router();
  const pageNotFound = (req: Request, res: Response): void =>
    sendCached(req, res, { etag: '"not-found"', maxAge: deps.cache.ttlSeconds, contentType: 'text/html', body: renderPageNotFound(), status: 404 });
  router.use(pageSecurity);
  if (deps.limiter) router.use(deps.limiter);
  router.get(STATUS_PAGE_CSS_PATH.replace(/^\/status/, ''), (req, res) => {
    sendCached(req, res, { etag: CSS_ETAG, maxAge: 3600, contentType: 'text/css', body: CSS });
  });
  router.get('/:slug', async (req, res) => {
    res.setHeader('Vary', 'Accept-Encoding');
    const entry = await readPageEntry(deps, req.params.slug, 'html');
    if (!entry) return pageNotFound(req, res);
    const answer = { maxAge: deps.cache.ttlSeconds, contentType: 'text/html' };
    const version = entry.html_version.toString();
    // Every browser takes gzip; the rare client that does not gets it inflated here.
    if (req.acceptsEncodings('gzip') === 'gzip') sendCached(req, res, { ...answer, etag: `"${version}-gz"`, body: entry.html_gz, encoding: 'gzip' });
    else sendCached(req, res, { ...answer, etag: `"${version}"`, body: gunzipSync(entry.html_gz) });
  });
  router.use(malformedEscapeAnswers(pageNotFound));
  return router;
}
