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
    [408, false],
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
