/**
 * How a field of a check is declared: once, in its monitor type's folder (`../http/fields.ts`).
 * Everything else reads the declaration: the API's DTO rules (services/api/src/http/rule-decorators.ts),
 * the agent protocol's parser (`fieldProblem()`, field-check.ts), the job's compact form
 * (packages/queues/src/compact-check.ts), the OpenAPI descriptions and the web form's labels,
 * bounds and hints. Pure data: the web app imports this file too.
 */

import { HEADER_MAP_LIMITS } from './value-tests';

/** What values a field takes. Bounds are inclusive; lengths count characters as class-validator does. */
export type FieldKind =
  /**
   * A target URL of one monitor type: `http`, an absolute http(s) URL (scheme, `//`, a host, no
   * spaces); `tcp`, `tcp://HOST:PORT` or `tls://HOST:PORT`; `dns`, `dns://NAME`; `ping`, `ping://HOST`.
   */
  | { kind: 'url'; maxLength: number; scheme: 'http' | 'tcp' | 'dns' | 'ping' }
  /** One of `values`; `upperCase`: the API upper-cases what a body gives before checking it. */
  | { kind: 'choice'; values: readonly string[]; upperCase?: true }
  /** Request headers: name → value, as HTTP allows them, none that frames or routes the request. */
  | { kind: 'headers' }
  /** `maxBytes`: a bound on the UTF-8 encoding too, for a text sent on the wire as it is (tcp_send). */
  | { kind: 'text'; minLength: number; maxLength: number; maxBytes?: number; pattern?: { source: string; message: string } }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'boolean' }
  /** A list of integers (a set: the API stores a repeated one once). */
  | { kind: 'integers'; maxItems: number; min: number; max: number }
  /** A list of strings of `minLength` to `maxLength` characters each, in the order given. */
  | { kind: 'strings'; maxItems: number; minLength: number; maxLength: number }
  /** `HOST` or `HOST:PORT` (a name, an IPv4 address, an IPv6 address, bracketed when a port follows). */
  | { kind: 'hostPort'; maxLength: number };

export interface FieldSpec {
  /** The name in REST bodies and answers, in the agent protocol and in the web form. */
  readonly wire: string;
  readonly type: FieldKind;
  /** Whether null is a value (it clears the field). */
  readonly nullable: boolean;
  /**
   * What the check uses when the field is not set; absent: every check carries its own value
   * (the API fills it from a preference on create, see services/api/src/monitors/monitor-fields.ts).
   */
  readonly default?: unknown;
  /** One sentence for people: the OpenAPI document and the form's hint read it. */
  readonly description: string;
  /** Part of the check configuration a job and an agent carry (and the probe reads). */
  readonly check: boolean;
  /** How the web form shows it; `showBounds`: an integer's hint ends with its bounds ("seconds, 5 to 300"). */
  readonly form: { readonly label: string; readonly hint?: string; readonly showBounds?: boolean };
}

/** A type's fields by their property name (camelCase) in CheckConfig and the entity. */
export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

type KindValue<K extends FieldKind> = K extends { kind: 'url' | 'text' | 'choice' | 'hostPort' }
  ? string
  : K extends { kind: 'headers' }
    ? Record<string, string>
    : K extends { kind: 'integer' }
      ? number
      : K extends { kind: 'boolean' }
        ? boolean
        : K extends { kind: 'integers' }
          ? number[]
          : K extends { kind: 'strings' }
            ? string[]
            : never;

/** The TypeScript type of a declared field's value. */
export type ValueOf<S extends FieldSpec> = S['nullable'] extends true ? KindValue<S['type']> | null : KindValue<S['type']>;

/** The values of a type's fields by property name. */
export type ValuesOf<F extends FieldSpecs> = { -readonly [P in keyof F]: ValueOf<F[P]> };

/** Property name → wire name. */
export type WireNames<F extends FieldSpecs> = { readonly [P in keyof F]: F[P]['wire'] };

/** The values of a type's fields by wire name. */
export type WireValuesOf<F extends FieldSpecs> = { -readonly [P in keyof F as F[P]['wire']]: ValueOf<F[P]> };

/**
 * One rule of class-validator a field's value must pass, named as class-validator names its
 * function (`isInt`, `min`...) or, for the three rules of our own, as their decorators register.
 * The DTO applies each as its decorator, the agent protocol's parser calls each as its function:
 * the two read the same list, so they cannot disagree (services/api/test/check-fields-agree.test.ts).
 */
export type FieldRule =
  | { rule: 'isString' | 'isBoolean' | 'isArray' | 'isHttpUrl' | 'isTcpUrl' | 'isDnsUrl' | 'isHostPort' | 'isPingUrl' | 'isHeaderMap' | 'hasNoRefusedCheckHeaders'; each?: true }
  | { rule: 'isInt'; each?: true }
  | { rule: 'min' | 'max' | 'maxLength' | 'arrayMaxSize' | 'maxUtf8Bytes'; bound: number; each?: true }
  | { rule: 'length'; min: number; max: number; each?: true }
  | { rule: 'matches'; source: string; message: string }
  | { rule: 'isIn'; values: readonly string[]; message: string };

/** The rule of each scheme's url (fields/value-tests.ts). */
const URL_RULES = { http: 'isHttpUrl', tcp: 'isTcpUrl', dns: 'isDnsUrl', ping: 'isPingUrl' } as const;

/** What each scheme's url must be, for a problem message. */
const URL_SHAPES = {
  http: (max: number) => `an absolute http(s) URL of at most ${max} characters`,
  tcp: (max: number) => `tcp://HOST:PORT or tls://HOST:PORT, at most ${max} characters`,
  dns: (max: number) => `dns://NAME of at most ${max} characters`,
  ping: (max: number) => `ping://HOST, at most ${max} characters`,
} as const;

/** The rules of a field, in the order the DTO lists its decorators (and reports their messages). */
export function rulesOf(spec: FieldSpec): FieldRule[] {
  const t = spec.type;
  switch (t.kind) {
    case 'url':
      return [{ rule: URL_RULES[t.scheme] }];
    case 'choice':
      return [{ rule: 'isIn', values: t.values, message: `${spec.wire} must be one of ${t.values.join(', ')}` }];
    case 'headers':
      return [{ rule: 'isHeaderMap' }, { rule: 'hasNoRefusedCheckHeaders' }];
    case 'text': {
      const pattern: FieldRule[] = t.pattern ? [{ rule: 'matches', ...t.pattern }] : [];
      const length: FieldRule = t.minLength > 0 ? { rule: 'length', min: t.minLength, max: t.maxLength } : { rule: 'maxLength', bound: t.maxLength };
      const bytes: FieldRule[] = t.maxBytes === undefined ? [] : [{ rule: 'maxUtf8Bytes', bound: t.maxBytes }];
      return [{ rule: 'isString' }, ...pattern, length, ...bytes];
    }
    case 'integer':
      return [{ rule: 'isInt' }, { rule: 'min', bound: t.min }, { rule: 'max', bound: t.max }];
    case 'boolean':
      return [{ rule: 'isBoolean' }];
    case 'integers':
      return [
        { rule: 'isArray' },
        { rule: 'arrayMaxSize', bound: t.maxItems },
        { rule: 'isInt', each: true },
        { rule: 'min', bound: t.min, each: true },
        { rule: 'max', bound: t.max, each: true },
      ];
    case 'strings':
      return [{ rule: 'isArray' }, { rule: 'arrayMaxSize', bound: t.maxItems }, { rule: 'isString', each: true }, { rule: 'length', min: t.minLength, max: t.maxLength, each: true }];
    case 'hostPort':
      return [{ rule: 'isHostPort' }];
  }
}

/** The rule of each scheme's url. */
/** What a value of the field must be, for a problem message ("must be ..."). */
export function describeKind(spec: FieldSpec): string {
  const t = spec.type;
  const what = ((): string => {
    switch (t.kind) {
      case 'url':
        return URL_SHAPES[t.scheme](t.maxLength);
      case 'choice':
        return `one of ${t.values.join(', ')}`;
      case 'headers':
        return `an object of at most ${HEADER_MAP_LIMITS.entries} header names to string values`;
      case 'text':
        return `a string of ${t.minLength} to ${t.maxLength} characters${t.maxBytes === undefined ? '' : `, at most ${t.maxBytes} bytes as UTF-8`}${t.pattern ? ` (${t.pattern.message})` : ''}`;
      case 'integer':
        return `an integer from ${t.min} to ${t.max}`;
      case 'boolean':
        return 'a boolean';
      case 'integers':
        return `an array of at most ${t.maxItems} integers from ${t.min} to ${t.max}`;
      case 'strings':
        return `an array of at most ${t.maxItems} strings of ${t.minLength} to ${t.maxLength} characters`;
      case 'hostPort':
        return `HOST or HOST:PORT, at most ${t.maxLength} characters`;
    }
  })();
  return spec.nullable ? `${what}, or null` : what;
}
