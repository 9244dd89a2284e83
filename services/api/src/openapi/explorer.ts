import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { pageSecurity } from '../http/page-security';
import { configFileSchemaJson } from './config-file-schema';
import { openApiJson } from './document';

/** swagger-ui-dist's files, served as they are installed (no CDN). Its index.js would load the bundle into Node, so it is not required. */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const OWN_DIR = path.join(__dirname, 'explorer');

/**
 * The explorer's own CSP: Swagger UI sets inline styles and shows data: images; everything else
 * (scripts, the document, "Try it out" requests) stays on this origin.
 */
const explorerSecurity = (upgradeInsecureRequests: boolean): RequestHandler =>
  pageSecurity(upgradeInsecureRequests, { 'style-src': ["'unsafe-inline'"], 'img-src': ['data:'], 'font-src': ['data:'] });

/** `/api/docs`: Swagger UI on /api/v1/openapi.json. Mount before the app's own helmet (this CSP replaces it here). */
export function apiExplorer(options: { upgradeInsecureRequests: boolean }): Router {
  const router = Router();
  const page = readFileSync(path.join(OWN_DIR, 'index.html'), 'utf8');
  const init = readFileSync(path.join(OWN_DIR, 'explorer-init.js'), 'utf8');
  router.use(explorerSecurity(options.upgradeInsecureRequests));
  router.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/explorer-init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  router.use(express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}

/**
 * `GET /api/v1/openapi.json`: needs no caller and is not rate limited. The document is built when
 * the app is, so a definition it cannot describe stops the start, not a later request.
 */
export function openApiDocumentRoute(): RequestHandler {
  const json = openApiJson();
  return (_req, res) => {
    res.type('application/json').send(json);
  };
}

/** GET /api/v1/config.schema.json: the JSON Schema of `uptime.yaml` (docs/config-as-code.md), built once. */
export function configFileSchemaRoute(): RequestHandler {
  const json = configFileSchemaJson();
  return (_req, res) => {
    res.type('application/json').send(json);
  };
}
