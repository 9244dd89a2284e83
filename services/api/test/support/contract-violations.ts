/**
 * Answers that did not match the OpenAPI document, recorded where they were seen (inside the
 * app, or in the client's hook) and turned into a test failure by fail-on-contract-violations.ts.
 * Kept apart from the checker so the jest hook loads nothing heavy.
 */
const pending: string[] = [];

export function recordContractViolations(violations: readonly string[]): void {
  pending.push(...violations);
}

/** The violations recorded since the last call. */
export function takeContractViolations(): string[] {
  return pending.splice(0);
}
