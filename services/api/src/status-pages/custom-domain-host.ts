import type { RequestHandler } from 'express';
import type { DataSource } from '@uptime/db';
import { findPageSlugByDomain } from './custom-domain.repository';
import { DOMAIN_PATTERN } from './status-page.dto';
import { renderPageNotFound, STATUS_PAGE_CSS_PATH, STATUS_PAGE_JS_PATH } from './status-page.html';

/** How many host names the lookup remembers: a flood of made-up Host headers cannot grow it further. */
const MAX_REMEMBERED = 10_000;

/** The paths a page's own host serves, as they are under `/status/{slug}`: the page, its feeds, incidents and subscribing. */
const PAGE_PATHS = /^\/(?:feed\.(?:atom|rss)|incidents\/[^/]+|subscribe|subscription\/(?:confirm|unsubscribe)\/[^/]+)$/;

/**
 * Whether a request's host name is surely no page's domain: addresses, `localhost` and the
 * product's own host (PUBLIC_URL's) never are, so they need no look-up.
 */
export function isOwnHost(publicUrl: string): (hostname: string | undefined) => boolean {
  const ownHost = new URL(publicUrl).hostname.toLowerCase();
  return (hostname) => {
    const host = hostname?.toLowerCase() ?? '';
    return host === ownHost || !DOMAIN_PATTERN.test(host);
  };
}

/**
 * A status page on a host name of its own (docs/status-pages.md, "Custom domains"): a request
 * whose Host is a page's `custom_domain` gets that page at `/`, with its feeds, incident pages
 * and subscription links under it (and the page's own `/status/{slug}/...` links, which its HTML
 * carries, and the stylesheet). Nothing else of the product answers on that host: no API, no web
 * app, no other page; it is the page's 404. Any other host (PUBLIC_URL's, an address) goes on as
 * before. Which host is whose is remembered for `ttlMs` per process, so a change of a page's
 * domain shows within that time.
 */
export function customDomainHost(deps: { ds: DataSource; publicUrl: string; ttlMs: number }): RequestHandler {
  const ownHostOrAddress = isOwnHost(deps.publicUrl);
  const remembered = new Map<string, { slug: string | null; until: number }>();
  const slugOf = async (host: string): Promise<string | null> => {
    const hit = remembered.get(host);
    if (hit && hit.until > Date.now()) return hit.slug;
    const slug = await findPageSlugByDomain(deps.ds, host);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(host, { slug, until: Date.now() + deps.ttlMs });
    return slug;
  };
  return (req, res, next) => {
    const host = req.hostname?.toLowerCase() ?? '';
    if (ownHostOrAddress(host)) return next();
    slugOf(host).then((slug) => {
      if (slug === null) return next();
      const own = `/status/${encodeURIComponent(slug)}`;
      const path = req.path;
      const query = req.url.slice(path.length);
      if (path === '/') req.url = `${own}${query}`;
      else if (PAGE_PATHS.test(path)) req.url = `${own}${path}${query}`;
      else if (path !== STATUS_PAGE_CSS_PATH && path !== STATUS_PAGE_JS_PATH && path !== own && !path.startsWith(`${own}/`)) {
        res.locals.refusedOnPageHost = true;
        res.status(404).setHeader('Cache-Control', 'no-store').type('html').send(renderPageNotFound());
        return;
      }
      res.locals.pageHostPath = req.path;
      next();
    }, next);
  };
}
