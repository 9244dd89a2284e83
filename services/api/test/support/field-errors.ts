import type { Response } from 'supertest';

/** The answer is a 400 VALIDATION_ERROR naming exactly `fields` in its details. */
export function expectFieldErrors(res: Response, fields: string[]): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
}
