import { ECHO_DATA, ECHO_DATA_BYTES, echoRequest, internetChecksum, parseEchoReply } from './echo-packet';
import { figuresOf } from './icmp-sockets';

describe('echo requests and replies', () => {
  it('builds an IPv4 echo request whose checksum verifies (the checksum of the whole message is 0)', () => {
    const packet = echoRequest(4, 0x1234, 0xabcd);
    expect([...packet.subarray(0, 8)]).toEqual([8, 0, packet[2], packet[3], 0x12, 0x34, 0xab, 0xcd]);
    expect(packet.length).toBe(8 + ECHO_DATA_BYTES);
    expect(packet.subarray(8).equals(ECHO_DATA)).toBe(true);
    expect(internetChecksum(packet)).toBe(0);
  });

  it('leaves the IPv6 checksum to the kernel, which covers the addresses', () => {
    const packet = echoRequest(6, 7, 9);
    expect([...packet.subarray(0, 8)]).toEqual([128, 0, 0, 0, 0, 7, 0, 9]);
  });

  it('computes the RFC 1071 example checksum, odd lengths padded with a zero byte', () => {
    expect(internetChecksum(Buffer.from([0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7]))).toBe(~0xddf2 & 0xffff);
    expect(internetChecksum(Buffer.from([0x01]))).toBe(~0x0100 & 0xffff);
  });

  it('reads an IPv4 reply behind the IP header a raw socket delivers, whatever its options length', () => {
    const reply = echoRequest(4, 0x0102, 0x0304);
    reply[0] = 0;
    const header = Buffer.alloc(24);
    header[0] = 0x46; // version 4, 6 words: a 4-byte option
    expect(parseEchoReply(4, Buffer.concat([header, reply]), true)).toEqual({ identifier: 0x0102, sequence: 0x0304, data: ECHO_DATA });
    expect(parseEchoReply(4, reply, false)).toEqual({ identifier: 0x0102, sequence: 0x0304, data: ECHO_DATA });
  });

  it('takes only echo replies: not requests, not another family, not a truncated message', () => {
    const request = echoRequest(6, 1, 2);
    expect(parseEchoReply(6, request, false)).toBeNull();
    const reply = Buffer.from(request);
    reply[0] = 129;
    expect(parseEchoReply(6, reply, false)).toMatchObject({ identifier: 1, sequence: 2 });
    expect(parseEchoReply(4, reply, false)).toBeNull();
    expect(parseEchoReply(6, reply.subarray(0, 7), false)).toBeNull();
  });
});

describe('figuresOf', () => {
  it('has the loss from the counts and the round trips to the microsecond, as iputils prints them', () => {
    expect(figuresOf(3, [0.0481, 0.08549])).toEqual({ sent: 3, received: 2, packetLoss: 33.33, rttMin: 0.048, rttAvg: 0.067, rttMax: 0.085 });
  });

  it('has no round trips when nothing came back', () => {
    expect(figuresOf(2, [])).toEqual({ sent: 2, received: 0, packetLoss: 100, rttMin: null, rttAvg: null, rttMax: null });
  });
});
