import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { ValidationError } from '@uptime/errors';

/** Body of POST /monitors/{id}/pause and /disable: an optional reason; `null` clears it. */
export class PauseMonitorDto {
  @ValidateIf((_o, v) => v !== null && v !== undefined) @IsString() @MaxLength(500) reason?: string | null;
}

/**
 * Resume and enable take no body. An empty one (`{}` or none) is fine; any field is unknown
 * (docs/errors.md: unknown body fields are a 400).
 */
export function assertNoFields(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The request body must be a JSON object', { body: ['must be a JSON object'] });
  const keys = Object.keys(body);
  if (keys.length > 0) throw new ValidationError(`Invalid body: ${keys.join(', ')}`, Object.fromEntries(keys.map((k) => [k, [`${k} is not a known field`]])));
}

/** A blank reason is no reason. */
export const normaliseReason = (reason: string | null | undefined): string | null | undefined =>
  typeof reason === 'string' ? reason.trim() || null : reason;
