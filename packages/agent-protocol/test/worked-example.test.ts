import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { parseCheckRequest, signRequest, verifySignedMessage } from '../src';

/** The fenced block of docs/agent-protocol.md tagged `name` (e.g. ```text secret). */
function docBlock(name: string): string {
  const doc = readFileSync(join(__dirname, '../../../docs/agent-protocol.md'), 'utf8');
  const match = new RegExp('```\\w+ ' + name + '\\n([\\s\\S]*?)\\n```').exec(doc);
  if (!match) throw new Error(`docs/agent-protocol.md has no block "${name}"`);
  return match[1]!;
}

const SECRET = '4f1d2c3b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff001';
const TIMESTAMP = 1732270000;
const BODY =
  '{"request_id":"0b9d7d2e-4c1a-4f0e-9a57-3f2b8c6d1e40","monitor_id":42,"check":{"url":"https://example.com/health","method":"GET","headers":{},"body":null,"timeout":30,"follow_redirects":true,"verify_ssl":true,"expected_status":[],"expected_content":null,"excluded_content":null,"json_path":null,"expected_json_value":null,"retry_count":0}}';

describe('the worked example of docs/agent-protocol.md', () => {
  it('signs the fixed secret, timestamp and body to the documented signature', () => {
    expect(signRequest(SECRET, TIMESTAMP, BODY)).toBe('sha256=6abfffeb11779d3d44ebc7edd918af4b19eb260b16a1cb3adb5c6c3abb634051');
    expect(signRequest(SECRET, TIMESTAMP, '')).toBe('sha256=8c283a0c9e7e852f1bb0e1d1aee291cecf6705323a94a4d90c70a63987bef761');
  });

  it('documents exactly these values', () => {
    expect(docBlock('secret')).toBe(SECRET);
    expect(docBlock('timestamp')).toBe(String(TIMESTAMP));
    expect(docBlock('body')).toBe(BODY);
    expect(docBlock('signature')).toBe(signRequest(SECRET, TIMESTAMP, BODY));
    expect(docBlock('health-signature')).toBe(signRequest(SECRET, TIMESTAMP, ''));
  });

  it('is plain HMAC-SHA256 over "timestamp.body", as any language computes it', () => {
    const hex = createHmac('sha256', Buffer.from(SECRET, 'utf8'))
      .update(Buffer.from(`${TIMESTAMP}.${BODY}`, 'utf8'))
      .digest('hex');
    expect(signRequest(SECRET, TIMESTAMP, BODY)).toBe(`sha256=${hex}`);
  });

  it('is a valid check request that the documented headers authenticate', () => {
    expect(parseCheckRequest(JSON.parse(BODY))).toMatchObject({
      ok: true,
      value: { request_id: '0b9d7d2e-4c1a-4f0e-9a57-3f2b8c6d1e40', monitor_id: 42 },
    });
    const headers = { 'x-agent-id': '7', 'x-timestamp': String(TIMESTAMP), 'x-signature': docBlock('signature') };
    const now = new Date(TIMESTAMP * 1000 + 120_000);
    expect(verifySignedMessage({ secret: SECRET, expectedAgentId: 7, headers, body: BODY, now })).toEqual({
      ok: true,
      timestamp: TIMESTAMP,
    });
  });
});
