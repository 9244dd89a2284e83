import { allowAnyAddress, allowPublicAddressesOnly } from '@uptime/probe';
import { startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import { MAX_ANSWER_BYTES, postJson } from '../src/outbound/post-json';

describe('outbound POST of Slack and webhook deliveries', () => {
  let target: FakeHttpServer;
  let other: FakeHttpServer;
  beforeEach(async () => {
    [target, other] = await Promise.all([startFakeHttpServer(), startFakeHttpServer()]);
  });
  afterEach(async () => {
    await Promise.all([target.close(), other.close()]);
  });

  it('follows no redirect: a 3xx is the answer', async () => {
    target.respond((_req, res) => {
      res.writeHead(302, { location: `${other.url}/elsewhere` });
      res.end();
    });

    const answer = await postJson({ url: `${target.url}/hook`, body: '{}', addressPolicy: allowAnyAddress });

    expect(answer.status).toBe(302);
    expect(other.requests).toEqual([]);
  });

  it('reads at most 64 KiB of an answer', async () => {
    target.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(5 * 1024 * 1024));
    });

    const answer = await postJson({ url: `${target.url}/hook`, body: '{}', addressPolicy: allowAnyAddress });

    expect(answer.status).toBe(200);
    expect(answer.body.length).toBe(MAX_ANSWER_BYTES);
  });

  it('refuses a blocked IP literal before connecting, as a permanent failure', async () => {
    await expect(postJson({ url: `${target.url}/hook`, body: '{}', addressPolicy: allowPublicAddressesOnly })).rejects.toMatchObject({
      kind: 'permanent',
      message: expect.stringMatching(/Target address 127\.0\.0\.1 is not allowed/),
    });
    expect(target.requests).toEqual([]);
  });
});
