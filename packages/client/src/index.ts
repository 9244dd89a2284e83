export { ApiError, createClient, successOf } from './client';
export type { ApiResponse, ClientExchange, ClientOptions, HttpMethod, OperationOf, PathsWith, RequestOptions, SuccessBody, UptimeClient } from './client';
export type { components, operations, paths } from './schema';

import type { components } from './schema';

/** A resource of the API by its schema name: `Schema<'Monitor'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
export { BODY_BOUNDS, type FieldBounds } from './body-bounds';
