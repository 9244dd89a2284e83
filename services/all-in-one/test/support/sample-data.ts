import type { Page } from 'playwright-core';

/** What the browser tests that measure layouts fill pages with (web-phone, web-screens). */

/** Long on purpose: a monitor name that pushes a careless layout past its box. */
export const LONG_MONITOR_NAME = 'Checkout service of the European shop front';

/** The id of what a POST made. */
export interface Created {
  id: number;
}

/**
 * An API token ("deploy script of the checkout") and an agent ("frankfurt-edge-1") made through
 * the page's session; the agent set to maintenance, so the workers never call it: `agentUrl`
 * is no agent.
 */
export async function aTokenAndAnAgentAtRest(page: Page, appUrl: string, agentUrl: string): Promise<void> {
  const headers = { Origin: appUrl };
  const token = await page.request.post(`${appUrl}/api/v1/auth/tokens`, { data: { name: 'deploy script of the checkout', expires_in_days: 30 }, headers });
  expect(token.status()).toBe(201);
  const agent = await page.request.post(`${appUrl}/api/v1/agents`, {
    data: { name: 'frankfurt-edge-1', location: 'Frankfurt am Main', url: agentUrl, is_public: false },
    headers,
  });
  expect(agent.status()).toBe(201);
  const { id } = ((await agent.json()) as { data: Created }).data;
  const resting = await page.request.patch(`${appUrl}/api/v1/agents/${id}/status`, { data: { status: 'maintenance' }, headers });
  expect(resting.status()).toBe(200);
}
