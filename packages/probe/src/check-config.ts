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
}

export interface ProbeOptions {
  /** Lift the SSRF guard (contract §1 ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Body bytes read at most (default 1 MiB). */
  maxBodyBytes?: number;
}
