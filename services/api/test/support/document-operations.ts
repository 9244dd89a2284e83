import { buildOpenApiDocument } from '../../src/openapi/document';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One operation as the served OpenAPI document states it. */
export interface DocumentedOperation {
  method: Method;
  /** OpenAPI style: `/api/v1/monitors/{id}`. */
  path: string;
  name: string;
  /** Whether it takes a caller (a token or a session): its `security` names a scheme. */
  takesCaller: boolean;
  /** The security schemes it accepts (`bearerAuth`, `sessionCookie`). */
  schemes: string[];
  /** `x-required-role`: what the caller must be in the organization (auth/permissions.ts needOf). */
  requiredRole: string | undefined;
  /** The names of its path parameters, in order. */
  pathParams: string[];
  /** The names of its required query parameters (`ids` of GET /monitors/recent-checks). */
  requiredQuery: string[];
  /** The documented request body example, if any. */
  bodyExample: unknown;
  /** Every status it documents. */
  statuses: number[];
  /** The error codes it documents for `status`. */
  codesOf(status: number): string[];
}

const METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document the app serves (buildOpenApiDocument), in document order. */
export function documentedOperations(): DocumentedOperation[] {
  const doc = buildOpenApiDocument();
  const shared = (doc.components.responses ?? {}) as Record<string, Record<string, unknown>>;
  const resolve = (response: Record<string, unknown>): Record<string, unknown> => {
    const $ref = response.$ref;
    return typeof $ref === 'string' ? shared[$ref.replace('#/components/responses/', '')]! : response;
  };
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const responses = op.responses as Record<string, Record<string, unknown>>;
      const security = op.security as unknown[];
      const body = op.requestBody as { content?: { 'application/json'?: { example?: unknown } } } | undefined;
      out.push({
        method,
        path,
        name: `${method.toUpperCase()} ${path}`,
        takesCaller: security.length > 0,
        schemes: security.flatMap((requirement) => Object.keys(requirement as object)),
        requiredRole: op['x-required-role'] as string | undefined,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
        requiredQuery: ((op.parameters ?? []) as { name: string; in: string; required?: boolean }[])
          .filter((p) => p.in === 'query' && p.required === true)
          .map((p) => p.name),
        bodyExample: body?.content?.['application/json']?.example,
        statuses: Object.keys(responses).map(Number),
        codesOf: (status) => {
          const response = responses[String(status)];
          if (!response) return [];
          const content = resolve(response).content as Record<string, { schema?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } }> | undefined;
          return content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? [];
        },
      });
    }
  }
  return out;
}

/**
 * `path` with the required query parameters of the operation at `templatePath` filled to name
 * `monitorId` (`ids` of GET /monitors/recent-checks); throws for one a test does not know, so a new
 * required parameter is filled on purpose, not skipped.
 */
export function withRequiredQuery(templatePath: string, required: readonly string[], path: string, monitorId: number): string {
  if (required.length === 0) return path;
  const query = required.map((name) => {
    if (name === 'ids' && templatePath === '/api/v1/monitors/recent-checks') return `ids=${monitorId}`;
    throw new Error(`${templatePath}: cannot fill its required ?${name}; add it to withRequiredQuery`);
  });
  return `${path}?${query.join('&')}`;
}

/** The names of an operation spec's required query parameters. */
export function requiredQueryOf(parameters: readonly { name: string; in: string; required?: boolean }[] | undefined): string[] {
  return (parameters ?? []).filter((p) => p.in === 'query' && p.required === true).map((p) => p.name);
}
