import { createSocket } from 'node:dgram';
import { connect, isIPv6 } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';

/** Where a query goes: an IP address (already judged by the SSRF guard) and a port. */
export interface DnsServer {
  address: string;
  port: number;
}

/** The query did not get its answer before the check's deadline. */
export class DnsTimeoutError extends Error {}

/**
 * Whether a message is the answer to our query: a response with its id and its question. Anything
 * else arriving on the socket (a late answer to someone else, a spoofed one) is not.
 */
function answers(response: DecodedPacket, id: number, question: dnsPacket.Question): boolean {
  const q = response.questions?.[0];
  return (
    response.type === 'response' &&
    response.id === id &&
    q !== undefined &&
    q.type === question.type &&
    q.name.toLowerCase().replace(/\.$/, '') === question.name.toLowerCase().replace(/\.$/, '')
  );
}

/** Runs `start` until it settles or `signal` aborts, calling `cleanup` either way. */
function untilAborted<T>(signal: AbortSignal, start: (resolve: (v: T) => void, reject: (e: unknown) => void) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new DnsTimeoutError());
    let cleanup: () => void = () => undefined;
    let settled = false;
    const done =
      <A>(settle: (a: A) => void) =>
      (a: A): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        cleanup();
        settle(a);
      };
    const onAbort = (): void => done(reject)(new DnsTimeoutError());
    signal.addEventListener('abort', onAbort, { once: true });
    cleanup = start(done(resolve), done(reject));
    if (settled) cleanup();
  });
}

/** One query over UDP: the first datagram from the server that answers it. */
export function queryOverUdp(server: DnsServer, id: number, question: dnsPacket.Question, signal: AbortSignal): Promise<DecodedPacket> {
  const query = dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [question] });
  return untilAborted(signal, (resolve, reject) => {
    const socket = createSocket(isIPv6(server.address) ? 'udp6' : 'udp4');
    socket.on('message', (message, from) => {
      if (from.port !== server.port || from.address !== server.address) return;
      let response: DecodedPacket;
      try {
        response = dnsPacket.decode(message);
      } catch {
        return; // Not a DNS message: keep waiting for the answer.
      }
      if (answers(response, id, question)) resolve(response);
    });
    socket.on('error', reject);
    socket.send(query, server.port, server.address, (error) => error && reject(error));
    return () => socket.close();
  });
}

/** One query over TCP: the length-prefixed answer (RFC 1035 4.2.2). */
export function queryOverTcp(server: DnsServer, id: number, question: dnsPacket.Question, signal: AbortSignal): Promise<DecodedPacket> {
  const query = dnsPacket.streamEncode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [question] });
  return untilAborted(signal, (resolve, reject) => {
    const socket = connect({ host: server.address, port: server.port, noDelay: true });
    let received = Buffer.alloc(0);
    socket.on('connect', () => socket.write(query));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      try {
        const response = dnsPacket.streamDecode(received) as DecodedPacket;
        if (answers(response, id, question)) resolve(response);
        else reject(new Error('the answer over TCP is not for this query'));
      } catch (error) {
        reject(new Error(`invalid DNS answer: ${(error as Error).message}`));
      }
    });
    socket.on('error', reject);
    socket.on('end', () => reject(Object.assign(new Error('Connection closed by the server'), { code: 'EPIPE' })));
    return () => socket.destroy();
  });
}
