import { JSONPath } from 'jsonpath-plus';
import type { HttpCheckConfig } from '../check-config';

export interface ReceivedResponse {
  statusCode: number;
  /** At most the probe's body cap. */
  body: Buffer;
  /** Reading stopped at the cap, so `body` may be the start of a longer body. */
  truncated: boolean;
}

type ResponseRules = Pick<HttpCheckConfig, 'expectedStatus' | 'expectedContent' | 'excludedContent' | 'jsonPath' | 'expectedJsonValue'>;

/** Why a response that did arrive fails the monitor's rules, or null when it passes them all. */
export function responseRuleFailure(rules: ResponseRules, response: ReceivedResponse): string | null {
  const { statusCode } = response;
  const statusOk = rules.expectedStatus.length === 0 ? statusCode >= 200 && statusCode < 300 : rules.expectedStatus.includes(statusCode);
  if (!statusOk) return `Expected status ${describeExpectedStatus(rules.expectedStatus)}, got ${statusCode}`;

  // Content rules only run when set; an empty string is treated as unset rather than as
  // "contains nothing" (always true) or "excludes nothing" (always failing).
  const text = response.body.toString('utf8');
  if (rules.expectedContent && !text.includes(rules.expectedContent)) {
    return `Response does not contain ${quote(rules.expectedContent)}`;
  }
  if (rules.excludedContent && text.includes(rules.excludedContent)) {
    return `Response contains excluded content ${quote(rules.excludedContent)}`;
  }
  if (rules.jsonPath) return jsonRuleFailure(rules.jsonPath, rules.expectedJsonValue, text, response.truncated);
  return null;
}

function jsonRuleFailure(path: string, expectedValue: string | null, text: string, truncated: boolean): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return truncated ? 'Response is not valid JSON (only the start of a larger body was read)' : 'Response is not valid JSON';
  }
  let matches: unknown[];
  try {
    // eval: false: the path comes from users, and script filters ([?(...)]) would run their code here.
    matches = (JSONPath({ path, json: json as object, wrap: true, eval: false }) as unknown[] | undefined) ?? [];
  } catch (error) {
    return `Invalid JSON path ${path}: ${(error as Error).message}`;
  }
  if (matches.length === 0) return `JSON path ${path} not found`;
  if (expectedValue === null) return null;
  const first = matches[0];
  const actual = typeof first === 'string' ? first : JSON.stringify(first);
  return actual === expectedValue ? null : `JSON path ${path} is ${quote(actual)}, expected ${quote(expectedValue)}`;
}

function describeExpectedStatus(expected: number[]): string {
  if (expected.length === 0) return '2xx';
  if (expected.length === 1) return String(expected[0]);
  return `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}`;
}

/** Quotes user content for a message, clipped so a long expectation cannot flood it. */
function quote(value: string): string {
  const clipped = value.length > 100 ? `${value.slice(0, 100)}…` : value;
  return JSON.stringify(clipped);
}
