import { gunzipSync } from 'node:zlib';
import type { InspectedResponse } from '../../src/openapi/response-inspection';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { recordContractViolations } from './contract-violations';
import { OpenApiContract, type ObservedResponse } from './openapi-contract';

let contract: OpenApiContract | undefined;

/** The checker for the document this code serves, built once per test file. */
export function documentContract(): OpenApiContract {
  contract ??= new OpenApiContract(buildOpenApiDocument());
  return contract;
}

/** Checks one answer and records what does not match; never throws into the response path. */
export function checkObservedResponse(observed: ObservedResponse, against: OpenApiContract = documentContract()): void {
  try {
    recordContractViolations(against.check(observed));
  } catch (err) {
    recordContractViolations([`${observed.method} ${observed.path} → ${observed.status}: could not be checked: ${String(err)}`]);
  }
}

/** The api harness's `responseInspector`: every answer of the app, checked against the document. */
export function checkInspectedResponse(response: InspectedResponse): void {
  // A status page's own host refuses all but the page with its 404 page: no operation's answer.
  if (response.refusedOnPageHost) return;
  // A compressed body is checked as its client reads it, once inflated.
  let body = response.body;
  if (response.headers['content-encoding'] === 'gzip' && body.length > 0) {
    try {
      body = gunzipSync(body);
    } catch (err) {
      recordContractViolations([
        `${response.method} ${response.path} → ${response.status}: the gzip body does not inflate: ${String(err)}`,
      ]);
      return;
    }
  }
  checkObservedResponse({ ...response, body: body.toString('utf8') });
}
