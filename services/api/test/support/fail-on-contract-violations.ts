import { takeContractViolations } from './contract-violations';

/**
 * Jest setupFilesAfterEnv: a test during which an answer did not match the OpenAPI document
 * fails, naming each answer and what differs (responses are checked by the api harness and by
 * the client of the end-to-end tests).
 */
function failOnViolations(): void {
  const violations = takeContractViolations();
  if (violations.length > 0) {
    throw new Error(`${violations.length} answer(s) do not match the OpenAPI document:\n${violations.join('\n')}`);
  }
}

afterEach(failOnViolations);
afterAll(failOnViolations);
