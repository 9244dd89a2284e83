import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { closeGzip, openGzip } from './open-gzip';

// gunzipSync checks the trailer's CRC-32 and length, and fails on a stream that does not end.
const roundTrip = (head: Buffer, tail: Buffer): Buffer => gunzipSync(closeGzip(openGzip(head), tail));

describe('openGzip and closeGzip', () => {
  it('make one gzip member of the head and the tail', () => {
    const head = Buffer.from(
      `{"data":${JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ date: `2026-11-${i % 30}`, uptime: i % 7 === 0 ? null : 99.9 })))}`,
    );
    const tail = Buffer.from(',"meta":{"timestamp":"2026-11-27T18:00:00.000Z","request_id":"é-1"}}');
    const body = closeGzip(openGzip(head), tail);
    expect(gunzipSync(body).toString()).toBe(Buffer.concat([head, tail]).toString());
    expect(body.length).toBeLessThan(head.length / 4);
  });

  it('finish one open member with a different tail each time, leaving it as it was', () => {
    const open = openGzip(Buffer.from('head '.repeat(1000)));
    const kept = Buffer.from(open);
    for (const tail of ['one', 'two, longer', ''])
      expect(gunzipSync(closeGzip(open, Buffer.from(tail))).toString()).toBe(`${'head '.repeat(1000)}${tail}`);
    expect(open.equals(kept)).toBe(true);
  });

  it('hold an empty head or tail, and a tail longer than one stored block', () => {
    const random = randomBytes(200_000);
    expect(roundTrip(Buffer.alloc(0), Buffer.from('tail')).toString()).toBe('tail');
    expect(roundTrip(Buffer.from('head'), Buffer.alloc(0)).toString()).toBe('head');
    expect(roundTrip(Buffer.alloc(0), Buffer.alloc(0))).toHaveLength(0);
    expect(roundTrip(random, random).equals(Buffer.concat([random, random]))).toBe(true);
    expect(roundTrip(Buffer.from('x'), Buffer.alloc(0xffff, 'y')).toString()).toBe(`x${'y'.repeat(0xffff)}`);
  });

  it('refuse bytes that are not an open member', () => {
    expect(() => closeGzip(Buffer.alloc(4), Buffer.from('tail'))).toThrow(RangeError);
  });
});
