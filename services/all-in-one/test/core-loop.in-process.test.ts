import { aCaller, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import { runCoreLoopScenario } from './core-loop.scenario';
import { startInProcessStack, type InProcessStack } from './support/in-process-stack';

jest.setTimeout(90_000);

describe('core loop, api + check-worker + notifier in one process', () => {
  let stack: InProcessStack;
  let target: FakeHttpServer;

  beforeAll(async () => {
    target = await startFakeHttpServer();
    stack = await startInProcessStack();
  });

  afterAll(async () => {
    await stack?.close();
    await target?.close();
  });

  it('detects the downtime, notifies once, resolves on recovery and ignores redelivery', async () => {
    const { ds, sendgrid, api } = stack;
    const { user, auth } = await aCaller(ds);
    await runCoreLoopScenario({ apiUrl: api.url, ds, target, sendgrid, auth, ownerEmail: user.email });
  });
});
