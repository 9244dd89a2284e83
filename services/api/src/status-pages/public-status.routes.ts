import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import { DomainError } from '@uptime/errors';
import { sendCached } from '../http/cached-answer';
import { metaFor } from '../http/envelope';
import type { CacheEntry, PublicCache } from '../http/public-cache';
import type { UptimeSource } from '../monitors/uptime.repository';
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

/** The representations a page's cache entry holds, each with its version (a hash of it, its entity tag). */
type Representation = 'json' | 'html' | 'html_gz';

/**
 * Reads one representation of a page's cache entry: the public JSON of its data, the rendered
 * HTML, or that HTML gzipped (base64; a page of 50 monitors is ~450 kB of HTML and ~25 kB
 * gzipped, so the compressed copy is what Redis and the network carry for browsers). An unknown
 * or unpublished slug is cached too (found = 0), so a flood of made-up slugs costs Postgres no
 * more than a real page.
 */
async function readPageEntry(deps: PublicStatusDeps, slug: string, field: Representation): Promise<CacheEntry | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  const entry = await deps.cache.read(deps.cache.keyOf('page', slug), ['found', `${field}_version`, field], async (): Promise<CacheEntry> => {
    const page = await readPublicStatusPage(deps.source, slug);
    if (!page) return { found: '0' };
    const json = JSON.stringify(page);
    const html = renderStatusPage(page);
    const htmlGz = gzipSync(html).toString('base64');
    return { found: '1', json_version: hashOf(json), json, html_version: hashOf(html), html, html_gz_version: `${hashOf(html)}-gz`, html_gz: htmlGz };
  });
  return entry.found === '1' ? entry : undefined;
}

/** `GET /api/v1/public/status-pages/{slug}`: the published page as JSON, no caller needed. */
export function publicStatusApiRouter(deps: PublicStatusDeps): Router {
  const router = Router();
  if (deps.limiter) router.use(deps.limiter);
  router.get('/status-pages/:slug', async (req, res) => {
    const entry = await readPageEntry(deps, req.params.slug, 'json');
    if (!entry) throw new DomainError('NOT_FOUND', 'Status page not found');
    // The data is cached as JSON text and framed here, so meta stays per request; hence a weak tag.
    const body = `{"data":${entry.json},"meta":${JSON.stringify(metaFor(res))}}`;
    sendCached(req, res, { etag: `W/"${entry.json_version}"`, maxAge: deps.cache.ttlSeconds, contentType: 'application/json', body });
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
  router.use(pageSecurity);
  if (deps.limiter) router.use(deps.limiter);
  router.get(STATUS_PAGE_CSS_PATH.replace(/^\/status/, ''), (req, res) => {
    sendCached(req, res, { etag: CSS_ETAG, maxAge: 3600, contentType: 'text/css', body: CSS });
  });
  router.get('/:slug', async (req, res) => {
    // Every browser takes gzip; the identity copy is for the clients that do not.
    res.setHeader('Vary', 'Accept-Encoding');
    const gzip = req.acceptsEncodings('gzip') === 'gzip';
    const entry = await readPageEntry(deps, req.params.slug, gzip ? 'html_gz' : 'html');
    if (!entry) {
      sendCached(req, res, { etag: '"not-found"', maxAge: deps.cache.ttlSeconds, contentType: 'text/html', body: renderPageNotFound(), status: 404 });
      return;
    }
    const maxAge = deps.cache.ttlSeconds;
    if (gzip) sendCached(req, res, { etag: `"${entry.html_gz_version}"`, maxAge, contentType: 'text/html', body: Buffer.from(entry.html_gz!, 'base64'), encoding: 'gzip' });
    else sendCached(req, res, { etag: `"${entry.html_version}"`, maxAge, contentType: 'text/html', body: entry.html! });
  });
  return router;
}
