import { ValidationError } from '@uptime/errors';
import { parseInput } from './validate';

/**
 * A create body: the DTO's fields are all optional (PUT and PATCH take them as they are), so the
 * ones a create needs are checked here. Every invalid field and every missing one in one answer.
 */
export async function parseWithRequired<T extends object>(cls: new () => T, body: unknown, required: readonly (keyof T & string)[]): Promise<T> {
  const missing: Record<string, string[]> =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(required.filter((f) => (body as Record<string, unknown>)[f] === undefined).map((f) => [f, [`${f} is required`]]))
      : {};
  let invalid: Record<string, string[]> = {};
  let dto: T | undefined;
  try {
    dto = await parseInput(cls, body);
  } catch (err) {
    if (!(err instanceof ValidationError) || Object.keys(missing).length === 0) throw err;
    invalid = (err.details ?? {}) as Record<string, string[]>;
  }
  const details = { ...invalid, ...missing };
  if (!dto || Object.keys(details).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  return dto;
}
