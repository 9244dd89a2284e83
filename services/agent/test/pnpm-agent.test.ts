import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { requestAgentHealth } from '@uptime/agent-protocol';
import { freePort, waitFor } from '@uptime/testing';
import { loadAgentConfig } from '../src/agent-config';

const ROOT = path.resolve(__dirname, '../../..');

/** `pnpm agent` from the repository root, as operators (and the acceptance check) start it; in its own process group. */
function pnpmAgent(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn('pnpm', ['--silent', 'agent'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe('pnpm agent', () => {
  it('starts from the repository root with AGENT_ID, AGENT_SECRET, AGENT_LOCATION and PORT', async () => {
    const port = await freePort();
    const secret = 'pnpm-agent-secret-0123456789';
    const agent = pnpmAgent({ AGENT_ID: '21', AGENT_SECRET: secret, AGENT_LOCATION: 'ap-south', PORT: String(port), HOST: '127.0.0.1' });
    try {
      await waitFor(() => agent.output().includes('agent listening'), { timeoutMs: 20_000 });
      const call = await requestAgentHealth(
        { id: 21, url: `http://127.0.0.1:${port}`, secret },
        { allowPrivateTargets: true, timeoutMs: 5000 },
      );
      expect(call).toMatchObject({ answered: true, value: { status: 'ok', agent_id: '21', location: 'ap-south' } });
    } finally {
      process.kill(-agent.child.pid!, 'SIGTERM');
      await agent.exited;
    }
  }, 30_000);

  it('stops at start with one line per missing or invalid variable', async () => {
    const agent = pnpmAgent({ AGENT_ID: '', AGENT_SECRET: 'short', AGENT_LOCATION: '', PORT: 'http' });
    const code = await agent.exited;
    expect(code).not.toBe(0);
    for (const variable of ['AGENT_ID', 'AGENT_SECRET', 'AGENT_LOCATION', 'PORT'])
      expect(agent.output()).toMatch(new RegExp(`config error: ${variable}: `));
  }, 30_000);

  it('reads its configuration with defaults for the optional variables', () => {
    expect(loadAgentConfig({ AGENT_ID: '5', AGENT_SECRET: 'x'.repeat(16), AGENT_LOCATION: 'eu' })).toEqual({
      agentId: '5',
      secret: 'x'.repeat(16),
      location: 'eu',
      port: 8080,
      host: '0.0.0.0',
      allowPrivateTargets: false,
      logLevel: 'info',
    });
    expect(() =>
      loadAgentConfig({ AGENT_ID: '5', AGENT_SECRET: 'x'.repeat(16), AGENT_LOCATION: 'eu', ALLOW_PRIVATE_TARGETS: 'yes' }),
    ).toThrow(/ALLOW_PRIVATE_TARGETS/);
  });
});
