import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allowAnyAddress } from '@uptime/probe';
import { startFakeWebhookReceiver } from '@uptime/testing';
import { buildWebhookRequest, postWebhook, signWebhook, type WebhookPayload } from '../src/channels/webhook';

/** The fenced block of docs/webhooks.md tagged `name` (e.g. ```text secret). */
function docBlock(name: string): string {
  const doc = readFileSync(join(__dirname, '../../../docs/webhooks.md'), 'utf8');
  const match = new RegExp('```\\w+ ' + name + '\\n([\\s\\S]*?)\\n```').exec(doc);
  if (!match) throw new Error(`docs/webhooks.md has no block "${name}"`);
  return match[1]!;
}

describe('the worked example of docs/webhooks.md', () => {
  const secret = docBlock('secret');
  const timestamp = Number(docBlock('timestamp'));
  const body = docBlock('body');

  it('is what the notifier signs and sends for that payload, key and time', () => {
    expect(signWebhook(secret, timestamp, body)).toBe(docBlock('signature'));
    const payload = JSON.parse(body) as WebhookPayload;
    const built = buildWebhookRequest({ secret, deliveryId: '7d0c6a52-7d0e-4c61-9d43-2d1e6f6f0a11', payload, timestamp });
    expect(built.body).toBe(body);
    expect(built.headers).toEqual({
      'content-type': 'application/json',
      'x-uptime-event': 'downtime',
      'x-uptime-delivery': '7d0c6a52-7d0e-4c61-9d43-2d1e6f6f0a11',
      'x-uptime-timestamp': '1764064800',
      'x-uptime-signature': docBlock('signature'),
    });
  });

  it('is accepted by a receiver that verifies as the document says, and refused with another key', async () => {
    const receiver = await startFakeWebhookReceiver(secret);
    try {
      const payload = JSON.parse(body) as WebhookPayload;
      await postWebhook({ url: receiver.url, secret, deliveryId: 'd-1', payload, addressPolicy: allowAnyAddress });
      expect(receiver.received).toEqual([{ event: 'downtime', deliveryId: 'd-1', timestamp: expect.any(Number), body: payload }]);

      await expect(postWebhook({ url: receiver.url, secret: 'whsec_other', deliveryId: 'd-2', payload, addressPolicy: allowAnyAddress })).rejects.toMatchObject({
        kind: 'permanent',
        message: 'webhook answered 401: bad signature',
      });
      expect(receiver.rejected).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
