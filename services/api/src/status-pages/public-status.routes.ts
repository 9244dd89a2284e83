import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { DomainError, ValidationError } from '@uptime/errors';
import { sendCached } from '../http/cached-answer';
import { metaFor, sendData } from '../http/envelope';
import { closeGzip, openGzip } from '../http/open-gzip';
import { malformedEscapeAnswers } from '../http/malformed-escape';
import type { CacheFill, PublicCache } from '../http/public-cache';
import type { UptimeSource } from '../monitor-stats/uptime.repository';
import { addSubscribeJson, addSubscriptionPages, type PublicSubscriptionDeps } from '../status-page-subscribers/public-subscription.routes';
import { addIncidentPage, addPublicIncidentJson } from './public-incident.routes';
import { readPublicStatus } from './public-status';
import { DOMAIN_PATTERN, SLUG_PATTERN } from './status-page.dto';
import { findPageSlugByDomain } from './custom-domain.repository';
import { renderPageNotFound, renderStatusPage, STATUS_PAGE_CSS_PATH, STATUS_PAGE_JS_PATH } from './status-page.html';

export interface PublicStatusDeps {
  source: UptimeSource;
  /** Subscribing by email; absent, the routes of subscribing are not served. */
  subscriptions?: PublicSubscriptionDeps;
  cache: PublicCache;
  /** PUBLIC_URL: the base of the links a page and its feeds give. */
  publicUrl: string;
  /** The per-IP limit of public reads (PUBLIC_RATE_LIMIT_PER_MINUTE); undefined when off. */
  limiter?: RequestHandler;
}

const CSS = readFileSync(path.join(__dirname, 'status-page.css'), 'utf8');
const JS = readFileSync(path.join(__dirname, 'status-page.js'), 'utf8');
const hashOf = (text: string): string => createHash('sha1').update(text).digest('base64url');
const CSS_ETAG = `"${hashOf(CSS)}"`;
const JS_ETAG = `"${hashOf(JS)}"`;
const DATA_OPEN = Buffer.from('{"data":');

/**
 * What a page's cache entry holds, each with a version (a hash, its entity tag): its public
 * JSON, as text and as an open gzip member (open-gzip.ts) that each answer closes with its own
 * `meta`, and its HTML, gzipped.
 */
type PageField = 'found' | 'json_version' | 'json' | 'json_gz' | 'html_version' | 'html_gz' | 'atom' | 'atom_version' | 'rss' | 'rss_version';
type PageEntry = Record<PageField, Buffer>;
type Representation = 'json' | 'json_gz' | 'html' | 'atom' | 'rss';
const FIELDS: Record<Representation, readonly PageField[]> = {
  json: ['found', 'json_version', 'json'],
  json_gz: ['found', 'json_version', 'json_gz'],
  html: ['found', 'html_version', 'html_gz'],
  atom: ['found', 'atom_version', 'atom'],
  rss: ['found', 'rss_version', 'rss'],
};

/** An unknown or unpublished slug, cached too: a flood of made-up slugs costs Postgres no more than a real page. */
const NO_PAGE: Record<PageField, string> = {
  found: '0',
  json_version: '',
  json: '',
  json_gz: '',
  html_version: '',
  html_gz: '',
  atom: '',
  atom_version: '',
  rss: '',
  rss_version: '',
};

/**
 * Reads one representation of a page's cache entry. The bodies are compressed once per fill: a
 * page of 50 monitors is ~160 kB of JSON and ~450 kB of HTML, and what Redis sends and the
 * network carries for clients that take gzip is a small fraction of that. The HTML is kept only
 * gzipped; the JSON is kept plain as well, for the API clients that do not take gzip.
 */
async function readPageEntry(deps: PublicStatusDeps, slug: string, representation: Representation): Promise<PageEntry | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  const entry = await deps.cache.read(deps.cache.keyOf('page', slug), FIELDS[representation], async (): Promise<CacheFill> => {
    const read = await readPublicStatus(deps.source, { slug }, deps.publicUrl);
    if (!read) return NO_PAGE;
    const { page, feeds } = read;
    const json = JSON.stringify(page);
    const html = renderStatusPage(page);
    return {
      found: '1',
      json_version: hashOf(json),
      json,
      json_gz: openGzip(Buffer.concat([DATA_OPEN, Buffer.from(json)])),
      html_version: hashOf(html),
      html_gz: gzipSync(html),
      atom: feeds.atom,
      atom_version: hashOf(feeds.atom),
      rss: feeds.rss,
      rss_version: hashOf(feeds.rss),
    };
  });
  return entry.found!.toString() === '1' ? (entry as PageEntry) : undefined;
}

/** `GET /api/v1/public/status-pages/{slug}`: the published page as JSON, no caller needed. */
export function publicStatusApiRouter(deps: PublicStatusDeps): Router {
  const router = Router();
  if (deps.limiter) router.use(deps.limiter);
  router.get('/status-pages/:slug', async (req, res) => {
    res.vary('Accept-Encoding');
    const isGzip = req.acceptsEncodings('gzip') === 'gzip';
    const entry = await readPageEntry(deps, req.params.slug, isGzip ? 'json_gz' : 'json');
    if (!entry) throw new DomainError('NOT_FOUND', 'Status page not found');
    // The data is cached as bytes and framed here, so meta stays per request (hence weak tags,
    // one per encoding); neither encoding serializes or compresses the data again.
    const meta = Buffer.from(`,"meta":${JSON.stringify(metaFor(res))}}`);
    const answer = { maxAge: deps.cache.ttlSeconds, contentType: 'application/json' };
    const version = entry.json_version.toString();
    if (isGzip) sendCached(req, res, { ...answer, etag: `W/"${version}-gz"`, body: closeGzip(entry.json_gz, meta), encoding: 'gzip' });
    else sendCached(req, res, { ...answer, etag: `W/"${version}"`, body: Buffer.concat([DATA_OPEN, entry.json, meta]) });
  });
  addPublicIncidentJson(router, deps);
  // Caddy's on-demand TLS asks here before it takes a certificate for a host (docs/status-pages.md).
  router.get('/domains/check', async (req, res) => {
    const domain = typeof req.query.domain === 'string' ? req.query.domain.toLowerCase() : '';
    if (!DOMAIN_PATTERN.test(domain)) throw new ValidationError('Invalid query: domain', { domain: ['domain must be a host name such as status.example.com'] });
    if ((await findPageSlugByDomain(deps.source.ds, domain)) === null) throw new DomainError('NOT_FOUND', 'No status page has this domain');
    sendData(res, { domain });
  });
  if (deps.subscriptions) addSubscribeJson(router, deps.subscriptions);
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
      // The one script file of the page (no inline script): STATUS_PAGE_JS_PATH.
      'script-src': ["'self'"],
      'img-src': ["'self'"],
      'base-uri': ["'none'"],
      // The page's subscribe form and the unsubscribe button post to the page's own host.
      'form-action': ["'self'"],
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
  router.get(STATUS_PAGE_JS_PATH.replace(/^\/status/, ''), (req, res) => {
    sendCached(req, res, { etag: JS_ETAG, maxAge: 3600, contentType: 'text/javascript', body: JS });
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
  addIncidentPage(router, deps, pageNotFound);
  if (deps.subscriptions) addSubscriptionPages(router, deps.subscriptions);
  for (const [kind, contentType] of [
    ['atom', 'application/atom+xml'],
    ['rss', 'application/rss+xml'],
  ] as const) {
    router.get(`/:slug/feed.${kind}`, async (req, res) => {
      const entry = await readPageEntry(deps, req.params.slug, kind);
      if (!entry) return pageNotFound(req, res);
      sendCached(req, res, { etag: `"${entry[`${kind}_version`].toString()}"`, maxAge: deps.cache.ttlSeconds, contentType: `${contentType}; charset=utf-8`, body: entry[kind] });
    });
  }
  router.use(malformedEscapeAnswers(pageNotFound));
  return router;
}
