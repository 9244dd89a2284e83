import { arrayMaxSize, isArray, isBoolean, isIn, isInt, isString, length, matches, max, maxLength, min } from 'class-validator';
import { refusedCheckHeaderProblems } from '../http/check-headers';
import { describeKind, rulesOf, type FieldRule, type FieldSpec } from './field-spec';
import { isDnsUrl, isHeaderMap, isHostPort, isHttpUrl, isPingUrl, isTcpUrl, isWithinUtf8Bytes } from './value-tests';

/** class-validator applies an `each` rule to every item of an array, and to anything else as a whole. */
const eachOr = (each: true | undefined, value: unknown, test: (v: unknown) => boolean): boolean =>
  each && Array.isArray(value) ? value.every(test) : test(value);

/** Whether `value` passes one rule, by class-validator's own function of the decorator's name. */
export function passesRule(r: FieldRule, value: unknown): boolean {
  switch (r.rule) {
    case 'isString':
      return eachOr(r.each, value, isString);
    case 'isBoolean':
      return eachOr(r.each, value, isBoolean);
    case 'isArray':
      return isArray(value);
    case 'isInt':
      return eachOr(r.each, value, isInt);
    case 'min':
      return eachOr(r.each, value, (v) => min(v, r.bound));
    case 'max':
      return eachOr(r.each, value, (v) => max(v, r.bound));
    case 'maxLength':
      return eachOr(r.each, value, (v) => maxLength(v, r.bound));
    case 'arrayMaxSize':
      return arrayMaxSize(value, r.bound);
    case 'maxUtf8Bytes':
      return eachOr(r.each, value, (v) => isWithinUtf8Bytes(v, r.bound));
    case 'length':
      return eachOr(r.each, value, (v) => length(v, r.min, r.max));
    case 'matches':
      return matches(value as string, new RegExp(r.source));
    case 'isIn':
      return isIn(value, [...r.values]);
    case 'isHttpUrl':
      return isHttpUrl(value);
    case 'isTcpUrl':
      return isTcpUrl(value);
    case 'isDnsUrl':
      return isDnsUrl(value);
    case 'isHostPort':
      return isHostPort(value);
    case 'isPingUrl':
      return isPingUrl(value);
    case 'isHeaderMap':
      return isHeaderMap(value);
    case 'hasNoRefusedCheckHeaders':
      return refusedProblems(value).length === 0;
  }
}

/** Refused header names; other shapes are left to `isHeaderMap` beside it. */
function refusedProblems(value: unknown): string[] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? refusedCheckHeaderProblems(value as Record<string, string>) : [];
}

/**
 * What is wrong with a field's value as a check carries it (present, null only where nullable),
 * each problem as "must be ..." or the refused header's own message; empty when it is valid.
 * The same rules, in the same order, as the API's DTO validates a body's field with.
 */
export function fieldProblems(spec: FieldSpec, value: unknown): string[] {
  if (value === null && spec.nullable) return [];
  const failed = rulesOf(spec).filter((r) => !passesRule(r, value));
  if (failed.length === 0) return [];
  // A well-formed header map with refused names: say which, as the API does.
  if (failed.every((r) => r.rule === 'hasNoRefusedCheckHeaders')) return refusedProblems(value);
  return [`must be ${describeKind(spec)}`];
}
