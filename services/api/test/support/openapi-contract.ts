import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { isServerPath } from '../../src/web/web-app';

/** An answer as a test saw it: from the app (harness) or through the client (end-to-end tests). */
export interface ObservedResponse {
  method: string;
  /** The request path, without the query string. */
  path: string;
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | number | undefined>;
  /** The raw body ('' when none). */
  body: string;
}

interface MediaObject {
  schema?: unknown;
}
interface ResponseObject {
  $ref?: string;
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, MediaObject>;
}
interface OperationObject {
  responses: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, unknown>; responses?: Record<string, ResponseObject>; headers?: Record<string, { required?: boolean }> };
}

/** Paths that are not the API: the explorer's page and assets. */
const NOT_API = ['/api/docs'];
const ROOT_ID = 'urn:uptime:openapi';

/** Rewrites `#/components/schemas/X` refs so they resolve inside one ajv schema of all components. */
function rebased<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${ROOT_ID}#/$defs/`)) as T;
}

interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
  item: Record<string, OperationObject>;
}

function routesOf(doc: Document): Route[] {
  return Object.entries(doc.paths)
    .map(([template, item]) => ({
      template,
      item,
      // Express routes are case-insensitive and take a trailing slash.
      pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
      literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }))
    .sort((a, b) => b.literals - a.literals);
}

const isJson = (contentType: string): boolean => /^application\/([\w.+-]+\+)?json$/.test(contentType);

/**
 * Checks answers against an OpenAPI document: the status must be documented for the operation
 * (path template and method), its required headers present, and a JSON body valid against the
 * documented schema (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it). Answers of routes the
 * document does not have must be error envelopes.
 */
export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  private readonly doc: Document;

  /** `document`: an OpenAPI 3.1 document as JSON data (built in-process or fetched). */
  constructor(document: object) {
    this.doc = document as Document;
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: ROOT_ID, $defs: rebased(this.doc.components.schemas) });
    this.routes = routesOf(this.doc);
  }

  /** The operation answering `METHOD path`, as `METHOD template`, or undefined. */
  operationOf(method: string, path: string): { template: string; operation: OperationObject } | undefined {
    const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    const route = this.routes.find((r) => r.pattern.test(path) && r.item[verb]);
    return route ? { template: route.template, operation: route.item[verb]! } : undefined;
  }

  /** What is wrong with one answer; empty when it matches the document. */
  check(observed: ObservedResponse): string[] {
    const where = `${observed.method} ${observed.path} → ${observed.status}`;
    if (NOT_API.some((p) => observed.path === p || observed.path.startsWith(`${p}/`))) return [];
    // REQUIRE_HTTPS answers any plain-HTTP request 308 before routing (documented in info.description).
    if (observed.status === 308) return [];
    const contentType = String(observed.headers['content-type'] ?? '').split(';')[0]!.trim();
    const found = this.operationOf(observed.method, observed.path);
    if (!found) {
      // A CORS preflight (204, no body) or an unknown route/method: an error envelope.
      if (observed.method === 'OPTIONS' && observed.status === 204) return [];
      // The web app's pages and files (src/web/web-app.ts) are not API operations; its 404s still are envelopes.
      if (observed.status < 400 && !isServerPath(observed.path)) return [];
      if (observed.status < 400) return [`${where}: answered ${observed.status}, but the document has no such operation`];
      return this.validateBody(where, 'ErrorResponse', { $ref: `${ROOT_ID}#/$defs/ErrorResponse` }, observed, contentType);
    }
    const key = `${observed.method.toUpperCase()} ${found.template} ${observed.status}`;
    const response = this.resolve(found.operation.responses[String(observed.status)]);
    if (!response) return [`${where}: status ${observed.status} is not documented for ${observed.method} ${found.template}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const required = header.required ?? (header.$ref ? this.doc.components.headers?.[header.$ref.split('/').pop()!]?.required : false);
      if (required && observed.headers[name.toLowerCase()] === undefined) problems.push(`${where}: header ${name} is missing`);
    }
    if (!response.content || observed.method === 'HEAD') return problems;
    const media = response.content[contentType];
    if (!media) return [...problems, `${where}: content type "${contentType}" is not documented (${Object.keys(response.content).join(', ')})`];
    if (!isJson(contentType) || media.schema === undefined) return problems;
    return [...problems, ...this.validateBody(where, key, rebased(media.schema), observed, contentType)];
  }

  /** What is wrong with `value` as an instance of `schema` (a schema of the document, refs and all). */
  schemaProblems(schema: unknown, value: unknown): string[] {
    const validate = this.ajv.compile(rebased(schema) as object);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(value)'} ${e.message ?? ''}`);
  }

  private resolve(response: ResponseObject | undefined): ResponseObject | undefined {
    if (!response?.$ref) return response;
    return this.doc.components.responses?.[response.$ref.split('/').pop()!];
  }

  private validateBody(where: string, key: string, schema: unknown, observed: ObservedResponse, contentType: string): string[] {
    if (!isJson(contentType)) return [`${where}: expected a JSON body, got "${contentType}"`];
    let body: unknown;
    try {
      body = JSON.parse(observed.body);
    } catch {
      return [`${where}: the body is not JSON: ${observed.body.slice(0, 200)}`];
    }
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema as object);
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    return [`${where}: the body does not match the document: ${errors.join('; ')}\n  body: ${observed.body.slice(0, 600)}`];
  }
}
