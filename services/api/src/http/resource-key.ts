import { IsIn, IsString, Length, Matches } from 'class-validator';
import { ConflictError } from '@uptime/errors';
import { isUniqueViolation } from '@uptime/db';
import { Nullable } from './validators';

/**
 * A resource's stable name in a configuration file (docs/config-as-code.md): 1-100 lowercase
 * letters, digits and `-_.`, starting with a letter or digit, so it reads the same in YAML, in a
 * shell and in a URL. Unique per kind within an organization (migration 1796520000000).
 */
export const RESOURCE_KEY_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,99}$/;
export const RESOURCE_KEY_MAX = 100;

/** Who manages a resource: 'config' (a file, through `uptime apply`), or null (the UI and the API by hand). */
export const MANAGED_BY_VALUES = ['config'] as const;
export type ManagedBy = (typeof MANAGED_BY_VALUES)[number];

/** `key`: a resource key, or null to clear it. */
export const ResourceKey = (): PropertyDecorator => (target, property) => {
  Nullable()(target, property);
  IsString()(target, property);
  Length(1, RESOURCE_KEY_MAX)(target, property);
  Matches(RESOURCE_KEY_PATTERN, { message: 'key must be 1-100 lowercase letters, digits or "_.-", starting with a letter or digit' })(
    target,
    property,
  );
};

/** `managed_by`: 'config', or null to hand the resource back to the UI. */
export const ManagedByField = (): PropertyDecorator => (target, property) => {
  Nullable()(target, property);
  IsIn(MANAGED_BY_VALUES)(target, property);
};

/**
 * The 409 of a key already used by another resource of the same kind in the organization
 * (the `<table>_key_idx` unique index); undefined for any other error.
 */
export function keyTakenError(err: unknown, kind: string, key: string | null | undefined): ConflictError | undefined {
  if (!isUniqueViolation(err)) return undefined;
  const constraint =
    (err as { driverError?: { constraint?: string }; constraint?: string }).driverError?.constraint ??
    (err as { constraint?: string }).constraint;
  if (constraint === undefined || !constraint.endsWith('_key_idx')) return undefined;
  return new ConflictError('RESOURCE_EXISTS', `Another ${kind} already has the key "${key ?? ''}"`);
}

/**
 * The key a violation of a `<table>_key_idx` unique index names, from its detail
 * (`Key (organization_id, key)=(7, api) already exists.`): which of several rows inserted by one
 * statement had a key taken. Undefined when the detail says none.
 */
export function takenKeyOf(err: unknown): string | undefined {
  const detail = (err as { driverError?: { detail?: string }; detail?: string }).driverError?.detail ?? (err as { detail?: string }).detail;
  return detail === undefined ? undefined : /\)=\(\d+, (.*)\) already exists/.exec(detail)?.[1];
}
