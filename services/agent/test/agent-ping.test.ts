import { randomUUID } from 'node:crypto';
import { requestAgentCheck, toWireCheck } from '@uptime/agent-protocol';
import { createLogger } from '@uptime/logger';
import { aPingCheckConfig, startPingNamespace, UNREACHABLE_IPV4, type PingNamespace } from '@uptime/testing';
import { startAgent, type RunningAgent } from '../src/agent-server';

const SECRET = 'agent-test-secret-0123456789abcdef';
const logger = createLogger({ level: 'silent', service: 'agent-test' });

/** Agents whose `ping` runs as nobody in a network namespace of the test's own (ping-namespace.ts). */
describe('reference agent, ping checks (protocol 3)', () => {
  let icmp: PingNamespace;
  let noIcmp: PingNamespace;
  let agent: RunningAgent;
  let agentWithoutIcmp: RunningAgent;
  beforeAll(async () => {
    icmp = startPingNamespace({ icmp: true });
    noIcmp = startPingNamespace({ icmp: false });
    const common = { secret: SECRET, location: 'eu-test', allowPrivateTargets: true, logger, port: 0, host: '127.0.0.1' };
    agent = await startAgent({ ...common, agentId: '7', pinger: icmp.pinger });
    agentWithoutIcmp = await startAgent({ ...common, agentId: '8', pinger: noIcmp.pinger });
  });
  afterAll(async () => {
    await agent?.close({ graceMs: 0 });
    await agentWithoutIcmp?.close({ graceMs: 0 });
    icmp?.close();
    noIcmp?.close();
  });

  const options = { allowPrivateTargets: true, timeoutMs: 10_000 };
  // The API's least timeout (5 s): an agent accepts only what a monitor can hold.
  const ping = (url: string, pingCount = 2) => ({ request_id: randomUUID(), monitor_id: 1, check: toWireCheck(aPingCheckConfig(url, { pingCount, timeout: 5 })) });

  it('runs a ping check and answers its packet loss and round trips', async () => {
    const request = ping('ping://127.0.0.1');
    expect(request.check).toEqual({ type: 'ping', url: 'ping://127.0.0.1', timeout: 5, ping_count: 2, retry_count: 0 });
    const call = await requestAgentCheck({ id: 7, url: agent.url, secret: SECRET }, request, options);
    expect(call).toMatchObject({
      answered: true,
      value: { result: { ok: true, error: null, ping: { sent: 2, received: 2, packet_loss: 0, rtt_min: expect.any(Number), rtt_avg: expect.any(Number), rtt_max: expect.any(Number) } } },
    });
  });

  it('answers a target that never replies as a failed check with 100% loss', async () => {
    const call = await requestAgentCheck({ id: 7, url: agent.url, secret: SECRET }, ping(`ping://${UNREACHABLE_IPV4}`, 1), options);
    expect(call).toMatchObject({ answered: true, value: { result: { ok: false, ping: { sent: 1, received: 0, packet_loss: 100, rtt_avg: null } } } });
  });

  it('answers 503 ICMP_UNAVAILABLE, never a failed check, when it cannot send ICMP', async () => {
    const call = await requestAgentCheck({ id: 8, url: agentWithoutIcmp.url, secret: SECRET }, ping('ping://127.0.0.1'), options);
    expect(call).toMatchObject({ answered: false });
    expect(call).toMatchObject({ error: expect.stringMatching(/HTTP 503: ICMP_UNAVAILABLE/) });
  });
});
