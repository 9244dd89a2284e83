import { UnrecoverableError } from 'bullmq';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/** Validates a job's data against its payload class; invalid data is not retried. */
export function parseJob<T extends object>(cls: new () => T, data: unknown): T {
  const instance = plainToInstance(cls, data);
  const errors = validateSync(instance, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`).join('; ');
    throw new UnrecoverableError(`invalid ${cls.name} payload: ${detail}`);
  }
  return instance;
}
