/** Everything one check needs, carried in the scheduler's job template (no database read per check). */
export interface CheckConfig {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  /** Seconds per attempt. */
  timeout: number;
  followRedirects: boolean;
  verifySsl: boolean;
  /** Accepted status codes; empty means any 2xx. */
  expectedStatus: number[];
  expectedContent: string | null;
  excludedContent: string | null;
  jsonPath: string | null;
  expectedJsonValue: string | null;
  /** Extra attempts after a failed one, within the same check. */
  retryCount: number;
}

/**
 * Each field of a check and its snake_case name, the one the REST API and the agent protocol use:
 * the one list of what a check carries. `checkConfigOf()` (packages/queues) copies these
 * properties from a monitor, `toWireCheck()`/`fromWireCheck()` (packages/agent-protocol) rename
 * them, and the API's monitor field table marks them (services/api/src/monitors/monitor-fields.ts).
 * The order is the order of the agent protocol's `check` object.
 */
export const CHECK_FIELDS = {
  url: 'url',
  method: 'method',
  headers: 'headers',
  body: 'body',
  timeout: 'timeout',
  followRedirects: 'follow_redirects',
  verifySsl: 'verify_ssl',
  expectedStatus: 'expected_status',
  expectedContent: 'expected_content',
  excludedContent: 'excluded_content',
  jsonPath: 'json_path',
  expectedJsonValue: 'expected_json_value',
  retryCount: 'retry_count',
} as const satisfies Record<keyof CheckConfig, string>;

/** A property of CheckConfig. */
export type CheckField = keyof typeof CHECK_FIELDS;

/** The properties of CheckConfig, in CHECK_FIELDS order. */
export const CHECK_FIELD_NAMES = Object.keys(CHECK_FIELDS) as CheckField[];

/** The outcome of one check. */
export interface ProbeResult {
  ok: boolean;
  statusCode: number | null;
  /** Milliseconds of the last attempt; null when no response arrived. */
  responseTime: number | null;
  /** Why the check failed, for people; null on success. */
  error: string | null;
  /** When the (first) attempt started. */
  checkedAt: Date;
  attempts: number;
  /** Where the last attempt's time went; absent for a result that came from an agent. */
  timings?: CheckTimings;
  /** notAfter of the https target's leaf certificate; null or absent when none was received. */
  certificateExpiresAt?: Date | null;
}

/**
 * Phases of the last attempt, in whole milliseconds, as got measures them (the last request when
 * redirects were followed); null for a phase that did not happen or was not reached: no TLS for
 * http, nothing after a refused connection (an IP-literal host has a DNS phase of about 0). The total is `responseTime`.
 */
export interface CheckTimings {
  dns: number | null;
  connect: number | null;
  tls: number | null;
  /** From the request being sent to the first byte of the response (time to first byte). */
  firstByte: number | null;
}

export interface ProbeOptions {
  /** Lift the SSRF guard (docs/configuration.md ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Body bytes read at most (default 1 MiB). */
  maxBodyBytes?: number;
}
