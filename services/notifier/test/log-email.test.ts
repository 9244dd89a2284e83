import { LogEmailChannel, type InfoLogger } from '../src/channels/log-email';

describe('log email channel', () => {
  it('writes the whole email to the log at info and counts it as handed over', async () => {
    const lines: { details: Record<string, unknown>; message: string }[] = [];
    const logger: InfoLogger = { info: (details, message) => lines.push({ details, message }) };

    await expect(
      new LogEmailChannel(logger).send({ to: 'ops@example.test', from: 'uptime@localhost', subject: '[DOWN] Shop is down', text: 'URL: https://shop.example.test' }),
    ).resolves.toBeUndefined();

    expect(lines).toEqual([
      {
        details: { email: { to: 'ops@example.test', from: 'uptime@localhost', subject: '[DOWN] Shop is down', text: 'URL: https://shop.example.test' } },
        message: expect.stringContaining('no mail transport configured'),
      },
    ]);
  });
});
