import { answer, startFakeHttpServer, startFakeSendGrid, type FakeSendGrid } from '@uptime/testing';
import { SendGridEmailChannel } from '../src/channels/sendgrid-email';

const message = { to: 'ops@example.test', from: 'uptime@example.test', subject: '[UP] Shop is back up', text: 'Monitor "Shop" is back up.' };

describe('SendGrid email channel', () => {
  let fake: FakeSendGrid;
  beforeEach(async () => {
    fake = await startFakeSendGrid();
  });
  afterEach(() => fake.close());

  const channel = (apiUrl = fake.url) => new SendGridEmailChannel({ apiKey: fake.apiKey, apiUrl });

  it('posts to SENDGRID_API_URL/v3/mail/send with the API key', async () => {
    await channel().send({ ...message, html: '<p>back up</p>' });

    expect(fake.server.requests).toHaveLength(1);
    expect(fake.server.requests[0]).toMatchObject({ method: 'POST', url: '/v3/mail/send' });
    expect(fake.server.requests[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(fake.mails).toEqual([{ to: 'ops@example.test', from: 'uptime@example.test', subject: '[UP] Shop is back up', text: 'Monitor "Shop" is back up.' }]);
  });

  it('sends the header fields of the message (a status page email’s List-Unsubscribe)', async () => {
    const headers = { 'List-Unsubscribe': '<https://status.example.test/status/acme/subscription/unsubscribe/t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    await channel().send({ ...message, headers });
    expect(fake.mails.map((m) => m.headers)).toEqual([headers]);
  });

  it('keeps a path in the base URL (a proxy in front of SendGrid)', async () => {
    const proxy = await startFakeHttpServer(answer(202));
    try {
      await channel(`${proxy.url}/sendgrid`).send(message);
      expect(proxy.requests.map((r) => r.url)).toEqual(['/sendgrid/v3/mail/send']);
    } finally {
      await proxy.close();
    }
  });

  it.each([
    [400, true],
    [401, true],
    [413, true],
    [408, true],
    [429, false],
    [500, false],
    [503, false],
  ])('treats an HTTP %i answer as permanent: %s', async (status, isPermanent) => {
    fake.server.respond(answer(status, JSON.stringify({ errors: [{ message: 'nope' }] }), { 'content-type': 'application/json' }));

    await expect(channel().send(message)).rejects.toMatchObject({
      name: 'EmailSendError',
      isPermanent,
      message: `SendGrid answered ${status}: nope`,
    });
  });

  it('treats an unreachable API as transient', async () => {
    const url = fake.url;
    await fake.close();

    await expect(channel(url).send(message)).rejects.toMatchObject({ name: 'EmailSendError', isPermanent: false });
    fake = await startFakeSendGrid(); // for afterEach
  });
});

describe('SendGrid stand-in modes, as the channel sees them', () => {
  let fake: FakeSendGrid;
  beforeEach(async () => {
    fake = await startFakeSendGrid();
  });
  afterEach(() => fake.close());

  const channel = (timeoutMs?: number) =>
    new SendGridEmailChannel({ apiKey: fake.apiKey, apiUrl: fake.url, ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  it('5xx is transient, 400 permanent, and neither is accepted', async () => {
    fake.setMode({ kind: 'server-error', status: 502 });
    await expect(channel().send(message)).rejects.toMatchObject({ kind: 'transient', notBefore: null });
    fake.setMode({ kind: 'bad-request', message: 'Does not contain a valid address.' });
    await expect(channel().send(message)).rejects.toMatchObject({ kind: 'permanent', message: 'SendGrid answered 400: Does not contain a valid address.' });
    expect(fake.mails).toEqual([]);
  });

  it('429 carries its reset time, and the same request is accepted after it', async () => {
    const resetAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
    fake.setMode({ kind: 'rate-limited', resetAt });
    await expect(channel().send(message)).rejects.toMatchObject({ kind: 'transient', notBefore: resetAt });
    fake.setMode({ kind: 'rate-limited', resetAt: new Date(Date.now() - 1) });
    await channel().send(message);
    expect(fake.mails).toHaveLength(1);
  });

  it('slow is accepted late; accept-then-never-answer is ambiguous and yet delivered', async () => {
    fake.setMode({ kind: 'slow', delayMs: 300 });
    const started = Date.now();
    await channel().send(message);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    fake.setMode({ kind: 'hang' });
    await expect(channel(200).send(message)).rejects.toMatchObject({ kind: 'ambiguous' });
    expect(fake.mails).toHaveLength(2);
  });
});
