import type { FieldSpec } from '../fields/field-spec';
import { HTTP_URL_MAX_LENGTH } from '../fields/value-tests';

/** The methods an HTTP check may use. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Every field of an HTTP check, declared once (docs/architecture.md, "A new monitor field"): its
 * wire name, type and bounds, default, description and form label. The order is the order of the
 * agent protocol's `check` object. Pure data: the web app imports this file.
 */
export const HTTP_FIELDS = {
  url: {
    wire: 'url',
    type: { kind: 'url', maxLength: HTTP_URL_MAX_LENGTH, scheme: 'http' },
    nullable: false,
    description: 'Absolute http(s) URL to check',
    check: true,
    form: { label: 'URL', hint: 'http:// or https://' },
  },
  method: {
    wire: 'method',
    type: { kind: 'choice', values: HTTP_METHODS, upperCase: true },
    nullable: false,
    default: 'GET',
    description: 'HTTP method of the check',
    check: true,
    form: { label: 'Method' },
  },
  headers: {
    wire: 'headers',
    type: { kind: 'headers' },
    nullable: false,
    default: {},
    description: 'Request headers sent with each check',
    check: true,
    form: { label: 'Headers', hint: 'one "Name: value" per line' },
  },
  body: {
    wire: 'body',
    type: { kind: 'text', minLength: 0, maxLength: 65536 },
    nullable: true,
    default: null,
    description: 'Request body sent with each check',
    check: true,
    form: { label: 'Body', hint: 'sent with each check' },
  },
  timeout: {
    wire: 'timeout',
    type: { kind: 'integer', min: 5, max: 300 },
    nullable: false,
    description: 'Seconds each attempt may take',
    check: true,
    form: { label: 'Timeout', hint: 'seconds', showBounds: true },
  },
  followRedirects: {
    wire: 'follow_redirects',
    type: { kind: 'boolean' },
    nullable: false,
    default: true,
    description: 'Whether redirects are followed',
    check: true,
    form: { label: 'Follow redirects' },
  },
  verifySsl: {
    wire: 'verify_ssl',
    type: { kind: 'boolean' },
    nullable: false,
    default: true,
    description: "Whether an https target's certificate must be valid",
    check: true,
    form: { label: 'Verify TLS certificate' },
  },
  expectedStatus: {
    wire: 'expected_status',
    type: { kind: 'integers', maxItems: 50, min: 100, max: 599 },
    nullable: false,
    default: [],
    description: 'Statuses counted as up; empty means any 2xx',
    check: true,
    form: { label: 'Expected status codes', hint: 'comma-separated; empty means any 2xx' },
  },
  expectedContent: {
    wire: 'expected_content',
    type: { kind: 'text', minLength: 1, maxLength: 1000 },
    nullable: true,
    default: null,
    description: 'Text the response must contain',
    check: true,
    form: { label: 'Expected content', hint: 'text the response must contain' },
  },
  excludedContent: {
    wire: 'excluded_content',
    type: { kind: 'text', minLength: 1, maxLength: 1000 },
    nullable: true,
    default: null,
    description: 'Text the response must not contain',
    check: true,
    form: { label: 'Excluded content', hint: 'text the response must not contain' },
  },
  jsonPath: {
    wire: 'json_path',
    type: { kind: 'text', minLength: 0, maxLength: 500, pattern: { source: '^\\$', message: 'json_path must be a JSONPath starting with "$"' } },
    nullable: true,
    default: null,
    description: 'JSONPath that must exist in a JSON response',
    check: true,
    form: { label: 'JSONPath', hint: 'must exist in a JSON response, e.g. $.status' },
  },
  expectedJsonValue: {
    wire: 'expected_json_value',
    type: { kind: 'text', minLength: 0, maxLength: 1000 },
    nullable: true,
    default: null,
    description: 'Expected value of the first json_path match (strings raw, other values as JSON)',
    check: true,
    form: { label: 'Expected JSON value', hint: "of the JSONPath's first match" },
  },
  retryCount: {
    wire: 'retry_count',
    type: { kind: 'integer', min: 0, max: 10 },
    nullable: false,
    default: 0,
    description: 'Retries of a failed attempt within one check',
    check: true,
    form: { label: 'Retries', hint: 'of a failed attempt, within one check' },
  },
} as const satisfies Record<string, FieldSpec>;
