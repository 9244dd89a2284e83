import type { CheckConfig } from '../../src/check-config';

/** A check with the API's defaults (contract §5) and a short timeout suited to local servers. */
export function checkConfig(url: string, overrides: Partial<CheckConfig> = {}): CheckConfig {
  return {
    url,
    method: 'GET',
    headers: {},
    body: null,
    timeout: 5,
    followRedirects: true,
    verifySsl: true,
    expectedStatus: [],
    expectedContent: null,
    excludedContent: null,
    jsonPath: null,
    expectedJsonValue: null,
    retryCount: 0,
    ...overrides,
  };
}
