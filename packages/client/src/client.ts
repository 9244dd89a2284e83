import type { paths } from './schema';

/** The methods the API uses. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The operation of `METHOD path`, as openapi-typescript describes it. */
export type OperationOf<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;

type PathParamsOf<Op> = Op extends { parameters: { path: infer X } } ? X : never;
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? Exclude<Q, undefined> : never;
type BodyOf<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type ResponsesOf<Op> = Op extends { responses: infer R } ? R : never;
type ContentOf<R> = R extends { content: { 'application/json': infer B } } ? B : R extends { content: { [type: string]: infer T } } ? T : undefined;

export type RequestOptions<Op> = ([PathParamsOf<Op>] extends [never] ? { path?: never } : { path: PathParamsOf<Op> }) & {
  query?: QueryOf<Op>;
  body?: BodyOf<Op>;
  headers?: Record<string, string>;
};

/** Options are required when the path has parameters. */
type Args<Op> = [PathParamsOf<Op>] extends [never] ? [options?: RequestOptions<Op>] : [options: RequestOptions<Op>];

/** An answer, discriminated by its documented status: `body` has that status's documented type. */
export type ApiResponse<Op> = {
  [S in keyof ResponsesOf<Op>]: { status: S; ok: boolean; headers: Headers; body: ContentOf<ResponsesOf<Op>[S]> };
}[keyof ResponsesOf<Op>];

type Success = 200 | 201 | 202 | 204;
/** The body type of the 2xx answers of a response union. */
export type SuccessBody<R> = R extends { status: infer S; body: infer B } ? (S extends Success ? B : never) : never;

/** One exchange as the client saw it (the end-to-end tests check each against the document). */
export interface ClientExchange {
  method: string;
  /** The request path, parameters filled in, without the query string. */
  path: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export interface ClientOptions {
  /** Where the API is, e.g. `http://127.0.0.1:3000` (paths carry /api/v1). */
  baseUrl: string;
  /** An API token (`upt_…`), sent as `Authorization: Bearer`. */
  token?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  onResponse?: (exchange: ClientExchange) => void;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`API answered ${status}${error?.code ? ` ${error.code}: ${error.message ?? ''}` : ''}`);
    this.name = 'ApiError';
  }
}

/** The body of a 2xx answer, typed; any other answer throws ApiError. */
export function successOf<R extends { status: unknown; body: unknown }>(response: R): SuccessBody<R> {
  const status = Number(response.status);
  if (status >= 200 && status < 300) return response.body as SuccessBody<R>;
  throw new ApiError(status, response.body);
}

export interface UptimeClient {
  request<M extends HttpMethod, P extends PathsWith<M>>(method: M, path: P, ...args: Args<OperationOf<P, M>>): Promise<ApiResponse<OperationOf<P, M>>>;
  get<P extends PathsWith<'get'>>(path: P, ...args: Args<OperationOf<P, 'get'>>): Promise<ApiResponse<OperationOf<P, 'get'>>>;
  post<P extends PathsWith<'post'>>(path: P, ...args: Args<OperationOf<P, 'post'>>): Promise<ApiResponse<OperationOf<P, 'post'>>>;
  put<P extends PathsWith<'put'>>(path: P, ...args: Args<OperationOf<P, 'put'>>): Promise<ApiResponse<OperationOf<P, 'put'>>>;
  patch<P extends PathsWith<'patch'>>(path: P, ...args: Args<OperationOf<P, 'patch'>>): Promise<ApiResponse<OperationOf<P, 'patch'>>>;
  delete<P extends PathsWith<'delete'>>(path: P, ...args: Args<OperationOf<P, 'delete'>>): Promise<ApiResponse<OperationOf<P, 'delete'>>>;
}

interface LooseOptions {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A thin typed client over fetch: paths, parameters, bodies and answers are typed from the
 * API's OpenAPI document (schema.d.ts). Answers are returned whatever their status; use
 * `successOf` to take a 2xx body or throw.
 */
export function createClient(options: ClientOptions): UptimeClient {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function send(method: HttpMethod, template: string, loose: LooseOptions = {}): Promise<{ status: number; ok: boolean; headers: Headers; body: unknown }> {
    const path = fillPath(template, loose.path);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(loose.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers, ...loose.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (loose.body !== undefined) headers['Content-Type'] = 'application/json';
    const url = `${base}${path}${query.size > 0 ? `?${query}` : ''}`;
    const res = await doFetch(url, {
      method: method.toUpperCase(),
      headers,
      body: loose.body === undefined ? undefined : JSON.stringify(loose.body),
      redirect: 'manual',
    });
    const text = await res.text();
    options.onResponse?.({ method: method.toUpperCase(), path, status: res.status, headers: Object.fromEntries(res.headers.entries()), body: text });
    const isJson = /^application\/([\w.+-]+\+)?json/.test(res.headers.get('content-type') ?? '');
    return { status: res.status, ok: res.ok, headers: res.headers, body: isJson && text !== '' ? JSON.parse(text) : text };
  }

  const call = (method: HttpMethod) => (path: string, loose?: LooseOptions) => send(method, path, loose);
  // The typed signatures are checked at the call sites; at run time every method is `send`.
  return {
    request: (method: HttpMethod, path: string, loose?: LooseOptions) => send(method, path, loose),
    get: call('get'),
    post: call('post'),
    put: call('put'),
    patch: call('patch'),
    delete: call('delete'),
  } as unknown as UptimeClient;
}
