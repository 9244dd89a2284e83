import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError as ClassValidationError } from 'class-validator';
import { ValidationError } from '@uptime/errors';

/** field path → messages, the `details` of a VALIDATION_ERROR. */
export type FieldErrors = Record<string, string[]>;

function collect(errors: ClassValidationError[], prefix = '', into: FieldErrors = {}): FieldErrors {
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const messages = Object.entries(e.constraints ?? {}).map(([rule, message]) =>
      rule === 'whitelistValidation' ? `${e.property} is not a known field` : message,
    );
    if (messages.length > 0) into[path] = [...(into[path] ?? []), ...messages];
    if (e.children?.length) collect(e.children, path, into);
  }
  return into;
}

/**
 * Validates `input` as an instance of `cls`. Unknown fields are refused (no mass assignment).
 * Throws VALIDATION_ERROR with every problem, field by field.
 */
export async function parseInput<T extends object>(cls: new () => T, input: unknown, what = 'body'): Promise<T> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationError(`The request ${what} must be a JSON object`, { [what]: ['must be a JSON object'] });
  }
  const instance = plainToInstance(cls, input, { exposeDefaultValues: false });
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  // class-transformer silently drops keys such as `__proto__` and `constructor`, so the whitelist
  // never sees them; they are unknown fields all the same.
  const dropped = Object.keys(input).filter((k) => !Object.prototype.hasOwnProperty.call(instance, k));
  if (errors.length > 0 || dropped.length > 0) {
    const details = collect(errors);
    // defineProperty: assigning `details['__proto__']` would set the prototype instead.
    for (const k of dropped)
      Object.defineProperty(details, k, { value: [`${k} is not a known field`], enumerable: true, writable: true, configurable: true });
    const fields = Object.keys(details);
    throw new ValidationError(`Invalid ${what}: ${fields.join(', ')}`, details);
  }
  return instance;
}
