import type { FieldBounds } from '@uptime/client';
import { fieldErrors } from './errors';

/**
 * What every form checks before sending, and how it words the API's refusals (docs/web.md,
 * "Forms"): problems by the API's field name, all at once, in words a person reads ("At least 30
 * seconds", "Required: a title for the page"). The bounds come from where the API takes them:
 * a field's declaration (packages/probe) or the OpenAPI document (`BODY_BOUNDS` of
 * `@uptime/client`), never typed again in a form.
 */
export type FormErrors = Record<string, string[]>;

/** Adds `problem` to `field`'s messages, unless null. */
export function addProblem(errors: FormErrors, field: string, problem: string | null): void {
  if (problem) (errors[field] ??= []).push(problem);
}

/**
 * A text field's problem by its bounds: `what` names what is missing ("a title for the page"),
 * `shape` says in words what its pattern asks ("3 to 64 of a–z, 0–9 and -"); null when within.
 * An optional field left empty passes.
 */
export function textProblem(text: string, bounds: FieldBounds, what: string, shape?: string): string | null {
  const t = text.trim();
  if (t === '') return bounds.required || (bounds.minLength ?? 0) > 0 ? `Required: ${what}` : null;
  if (bounds.maxLength !== undefined && t.length > bounds.maxLength) return `At most ${bounds.maxLength} characters (now ${t.length})`;
  if (bounds.minLength !== undefined && t.length < bounds.minLength) return `At least ${bounds.minLength} characters`;
  if (bounds.pattern !== undefined && !new RegExp(bounds.pattern).test(t))
    return shape ? `Write it as ${shape}` : 'Not in the expected form';
  return null;
}

/** "At least 30 seconds" / "At most 300 seconds" / "A whole number of seconds, 5 to 300", or null when within. */
export function integerProblem(text: string, min: number, max: number, unit: string): string | null {
  const t = text.trim();
  if (t === '') return `Required: ${unit === '' ? 'a whole number' : `a number of ${unit}`}, ${min} to ${max}`;
  if (!/^-?\d+$/.test(t)) return `A whole number${unit === '' ? '' : ` of ${unit}`}, ${min} to ${max}`;
  const n = Number(t);
  const of = (x: number) => (unit === '' ? String(x) : `${x} ${x === 1 ? unit.replace(/s$/, '') : unit}`);
  if (n < min) return `At least ${of(min)}`;
  if (n > max) return `At most ${of(max)}`;
  return null;
}

/** An integer field by its OpenAPI bounds (`unit` as `integerProblem` takes it). */
export const boundedIntegerProblem = (text: string, bounds: FieldBounds, unit: string): string | null =>
  integerProblem(text, bounds.minimum ?? Number.MIN_SAFE_INTEGER, bounds.maximum ?? Number.MAX_SAFE_INTEGER, unit);

/** A list's problem by its size bounds: `noun` and `nouns` name one item and several ("monitor"). */
export function choiceProblem(count: number, bounds: FieldBounds, noun: string, nouns: string): string | null {
  const min = bounds.minItems ?? 0;
  if (count < min) return min === 1 ? `Choose at least one ${noun}` : `Choose at least ${min} ${nouns}`;
  if (bounds.maxItems !== undefined && count > bounds.maxItems) return `At most ${bounds.maxItems} ${nouns} (now ${count})`;
  return null;
}

const API_PHRASES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/ must be at least (\d+) seconds$/, (m) => `At least ${m[1]} seconds`],
  [/ must not be less than (-?\d+)$/, (m) => `At least ${m[1]}`],
  [/ must not be greater than (-?\d+)$/, (m) => `At most ${m[1]}`],
  [/ should not be empty$/, () => 'Required'],
  [/ is required$/, () => 'Required'],
  [/ must be longer than or equal to (\d+) characters$/, (m) => `At least ${m[1]} characters`],
  [/ must be shorter than or equal to (\d+) characters$/, (m) => `At most ${m[1]} characters`],
  [/ must be at most (\d+) bytes as UTF-8$/, (m) => `At most ${m[1]} bytes (a letter outside English can take 2 to 4)`],
  [/ must be an integer number$/, () => 'A whole number'],
  [/ must contain at least 1 elements$/, () => 'Choose at least one'],
  [/ must contain at least (\d+) elements$/, (m) => `Choose at least ${m[1]}`],
  [/ must contain no more than (\d+) elements$/, (m) => `At most ${m[1]}`],
];

/**
 * An API refusal's message in the form's own words ("timeout must not be less than 5" → "At least
 * 5", "At least 5 seconds" with `unit` "seconds"); one with no such words loses its leading field
 * name ("slug must be 3-64 lowercase letters" → "Must be 3-64 lowercase letters").
 */
export function humanApiMessage(message: string, unit = ''): string {
  for (const [pattern, say] of API_PHRASES) {
    const m = pattern.exec(message);
    if (!m) continue;
    const said = say(m);
    return unit !== '' && /^At (least|most) -?\d+$/.test(said) ? `${said} ${unit}` : said;
  }
  const rest = /^[\w.[\]-]+ ((?:must|should|is|are) .*)$/.exec(message)?.[1];
  return rest ? rest[0]!.toUpperCase() + rest.slice(1) : message;
}

/** How a form reads the API's refusals: see `refusalsByField`. */
export interface RefusalWords {
  /** The form field of an API key; default: the key up to its first `.` or `[` (`monitor_ids[2]` → monitor_ids). */
  fieldOf?: (key: string) => string;
  /** A field's unit ("seconds"), for "At least 30 seconds". */
  unitOf?: (field: string) => string;
  /** A form's own words for a message, before the common ones apply. */
  reword?: (message: string) => string;
}

/** A VALIDATION_ERROR's messages by form field, worded by `humanApiMessage`. */
export function refusalsByField(err: unknown, words: RefusalWords = {}): FormErrors {
  const { fieldOf = (key: string) => key.split(/[.[]/)[0]!, unitOf = () => '', reword = (m: string) => m } = words;
  const out: FormErrors = {};
  for (const [key, messages] of Object.entries(fieldErrors(err))) {
    const field = fieldOf(key);
    (out[field] ??= []).push(...messages.map((m) => humanApiMessage(reword(m), unitOf(field))));
  }
  return out;
}

/** The summary at the top of a form whose problems are all next to their fields. */
export const FIELDS_NEED_A_CHANGE = 'Some fields need a change; see the messages next to them.';
