import { registerDecorator, ValidateIf, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { isDnsUrl, isHeaderMap, isHostPort, isHttpUrl, isPingUrl, isTcpUrl, isWithinUtf8Bytes, refusedCheckHeaderProblems } from '@uptime/probe';

/**
 * Optional, but not nullable: an absent field is left alone, while `null` is validated (and
 * refused) like any other value. `@IsOptional()` would let null through to a NOT NULL column.
 */
export const Optional = (): PropertyDecorator => ValidateIf((_o, v) => v !== undefined);

/** Optional and nullable: `null` clears the field. */
export const Nullable = (): PropertyDecorator => ValidateIf((_o, v) => v !== null && v !== undefined);

/** A rule of our own, registered under `name` (openapi/dto-schema.ts gives each name its JSON Schema). */
export function ownRule(name: string, validate: (value: unknown) => boolean, message: (args: ValidationArguments) => string) {
  return (options?: ValidationOptions): PropertyDecorator =>
    (target, propertyName) =>
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: String(propertyName),
        options: { message, ...options },
        validator: { validate },
      });
}

/** An absolute http(s) URL (packages/probe/src/fields/value-tests.ts). */
export const IsHttpUrl = ownRule('isHttpUrl', isHttpUrl, (args) => `${args.property} must be an absolute http(s) URL`);

/** `tcp://HOST:PORT` or `tls://HOST:PORT` (packages/probe/src/fields/value-tests.ts). */
export const IsTcpUrl = ownRule('isTcpUrl', isTcpUrl, (args) => `${args.property} must be tcp://HOST:PORT or tls://HOST:PORT`);

/** `dns://NAME` (packages/probe/src/fields/value-tests.ts). */
export const IsDnsUrl = ownRule('isDnsUrl', isDnsUrl, (args) => `${args.property} must be dns://NAME`);

/** `HOST` or `HOST:PORT` (packages/probe/src/fields/value-tests.ts). */
export const IsHostPort = ownRule('isHostPort', isHostPort, (args) => `${args.property} must be HOST or HOST:PORT (port 1 to 65535)`);
/**
 * At most `bound` bytes as UTF-8: a text sent on the wire as it is (tcp_send) is bounded in bytes,
 * which `MaxLength`'s characters are not. The bound is the rule's constraint, for its JSON Schema
 * (openapi/dto-schema.ts).
 */
export function MaxUtf8Bytes(bound: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxUtf8Bytes',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [bound],
      options: { message: (args: ValidationArguments) => `${args.property} must be at most ${bound} bytes as UTF-8`, ...options },
      validator: { validate: (value: unknown) => isWithinUtf8Bytes(value, bound) },
    });
}

/** `ping://HOST` (packages/probe/src/fields/value-tests.ts). */
export const IsPingUrl = ownRule('isPingUrl', isPingUrl, (args) => `${args.property} must be ping://HOST`);

/**
 * A monitor's target of any type: the scheme's match with the body's type is checked after the
 * DTO (monitors/monitor-type.ts), where the type is known.
 */
export const IsMonitorUrl = ownRule(
  'isMonitorUrl',
  (value) => isHttpUrl(value) || isTcpUrl(value) || isDnsUrl(value) || isPingUrl(value),
  (args) => `${args.property} must be an absolute http(s) URL, tcp://HOST:PORT, tls://HOST:PORT, dns://NAME or ping://HOST`,
);

/** A plain object of string → string (request headers). */
export const IsHeaderMap = ownRule(
  'isHeaderMap',
  isHeaderMap,
  (args) => `${args.property} must be an object of header names to string values (at most 50)`,
);

const refusedHeadersOf = (value: unknown): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? refusedCheckHeaderProblems(value as Record<string, string>) : [];

/**
 * No header that frames or routes the request (packages/probe/src/http/check-headers.ts); the message
 * names each one refused. Other shapes are left to the header-map rule beside it.
 */
export const HasNoRefusedCheckHeaders = ownRule(
  'hasNoRefusedCheckHeaders',
  (value) => refusedHeadersOf(value).length === 0,
  (args) => refusedHeadersOf(args.value).join('; '),
);
