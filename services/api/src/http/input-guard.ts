import type { RequestHandler } from 'express';
import { ValidationError } from '@uptime/errors';

/** Deepest nesting of objects and arrays a request body may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * Keys that reach an object's prototype once copied (`Object.assign`, spreads, merges); no
 * field of the API is named so, so they are refused wherever they appear as keys.
 */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const pathOf = (parent: string, key: string | number): string =>
  typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;

/**
 * The first thing in `value` no route may receive, as `{field path: [message]}`: nesting deeper
 * than 32, a prototype key, or a NUL character (Postgres stores no `\u0000` in text) in a string
 * or a key. Walked iteratively, so a hostile nesting cannot exhaust the stack here.
 */
export function findHostileInput(value: unknown, root: 'body' | 'query'): Record<string, string[]> | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    const where = path === '' ? root : path;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return { [where]: ['must not contain the NUL character'] };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { [where]: [`must not nest objects or arrays deeper than ${MAX_JSON_DEPTH} levels`] };
    if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, path: pathOf(path, i), depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      const keyPath = pathOf(path, key);
      if (PROTOTYPE_KEYS.has(key)) return { [keyPath]: [`"${key}" is not allowed as a key`] };
      if (key.includes('\u0000')) return { [where]: ['keys must not contain the NUL character'] };
      stack.push({ value: item, path: keyPath, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Refuses, with 400 VALIDATION_ERROR naming the field, a parsed body or query string that holds
 * what `findHostileInput` finds, before any route sees it: every route gets the rule.
 */
export const inputGuard: RequestHandler = (req, _res, next) => {
  const problem = findHostileInput(req.body, 'body') ?? findHostileInput(req.query, 'query');
  if (problem) return next(new ValidationError('The request holds a value no field accepts', problem));
  next();
};
