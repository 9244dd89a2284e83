import { createClient, successOf, type UptimeClient } from '@uptime/client';
import { checkObservedResponse } from '@uptime/api/test/support/document-contract';
import { OpenApiContract } from '@uptime/api/test/support/openapi-contract';

/**
 * The typed client for end-to-end tests, with every answer checked against the OpenAPI document
 * the running API serves (a mismatch fails the test through the jest setup hook).
 */
export async function contractCheckedClient(baseUrl: string, auth: string): Promise<UptimeClient> {
  const document = successOf(await createClient({ baseUrl }).get('/api/v1/openapi.json'));
  const contract = new OpenApiContract(document);
  return createClient({
    baseUrl,
    token: auth.replace(/^Bearer\s+/i, ''),
    onResponse: (exchange) => checkObservedResponse(exchange, contract),
  });
}
