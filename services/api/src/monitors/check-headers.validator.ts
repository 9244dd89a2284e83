import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { refusedCheckHeaderProblems } from '@uptime/probe';

const problemsOf = (value: unknown): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? refusedCheckHeaderProblems(value as Record<string, string>) : [];

/**
 * No header that frames or routes the request (packages/probe/src/check-headers.ts); the message
 * names each one refused. Other shapes are left to the header-map rule beside it.
 */
export function HasNoRefusedCheckHeaders(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'hasNoRefusedCheckHeaders',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: (args: ValidationArguments) => problemsOf(args.value).join('; '), ...options },
      validator: { validate: (value: unknown) => problemsOf(value).length === 0 },
    });
}
