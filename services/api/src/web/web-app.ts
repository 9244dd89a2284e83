import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { pageSecurity } from '../http/page-security';

/** services/web/dist of this checkout: where `pnpm --filter @uptime/web build` writes the app. */
export const DEFAULT_WEB_DIST_DIR = path.resolve(__dirname, '../../../web/dist');

/**
 * Paths the server answers itself: the API, the operations endpoints, heartbeat pings and the
 * public status pages and badges. The app's fallback never captures them, so an unknown path
 * below one keeps its own 404 error envelope.
 */
export const SERVER_PATH_PREFIXES = ['/api', '/healthz', '/readyz', '/metrics', '/status', '/badge', '/ping'] as const;

/** Case-insensitive, as Express routes are: `/API/v1/monitors` reaches the API. */
export function isServerPath(urlPath: string): boolean {
  const lower = urlPath.toLowerCase();
  return SERVER_PATH_PREFIXES.some((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
}

/** Vite names every file under assets/ by its content hash: a new build gets new names. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** index.html and the other unhashed files: revalidated on every load, so a deploy shows at once. */
const REVALIDATE = 'no-cache';

/** The last path segment has a file extension (`/favicon.ico`), which no client-side route has. */
const looksLikeFile = (urlPath: string): boolean => /\.[A-Za-z0-9]+$/.test(urlPath.slice(urlPath.lastIndexOf('/') + 1));

/**
 * The app's CSP: its own scripts, styles, images, fonts and fetches only, no inline script or
 * style (Vite emits none) and no inline event handlers. `data:` images are the one addition
 * (icons inlined by the build).
 */
const appSecurity = (upgradeInsecureRequests: boolean): RequestHandler =>
  pageSecurity(upgradeInsecureRequests, { 'script-src-attr': ["'none'"], 'img-src': ['data:'] });

export interface WebAppOptions {
  /** The built app: index.html and assets/ (WEB_DIST_DIR). */
  distDir: string;
  upgradeInsecureRequests: boolean;
}

/**
 * Serves the single-page app from `distDir`: its files, and its index.html for every other GET
 * outside the server's own paths, so a client-side route (`/monitors/42`) loads the app. The
 * folder is read per request: an app built after the start is served without a restart, and
 * without an index.html every request falls through to the API's 404 as before.
 *
 * One middleware rather than a router: it declares no routes, so the API's route list (and its
 * OpenAPI coverage test) is untouched.
 */
export function serveWebApp({ distDir, upgradeInsecureRequests }: WebAppOptions): RequestHandler {
  const security = appSecurity(upgradeInsecureRequests);
  const indexFile = path.join(distDir, 'index.html');
  const assetsDir = path.join(distDir, 'assets') + path.sep;
  const files = express.static(distDir, {
    index: false,
    redirect: false,
    setHeaders: (res, filePath) => res.setHeader('Cache-Control', filePath.startsWith(assetsDir) ? ASSET_CACHE : REVALIDATE),
  });

  const sendIndex = (res: Response, next: NextFunction): void => {
    res.setHeader('Cache-Control', REVALIDATE);
    res.sendFile(indexFile, { cacheControl: false }, (err?: NodeJS.ErrnoException) => {
      if (!err) return;
      // No app built: everything falls through to the API, as without this middleware.
      res.removeHeader('Cache-Control');
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return next();
      next(err);
    });
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isServerPath(req.path)) return next();
    security(req, res, (err?: unknown) => {
      if (err) return next(err);
      // A missing hashed asset or file is a 404, never index.html in its place.
      files(req, res, () => (req.path.startsWith('/assets/') || looksLikeFile(req.path) ? next() : sendIndex(res, next)));
    });
  };
}
