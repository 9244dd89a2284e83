import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startFaultProxy, type FaultProxy } from '../src/fault-proxy';

/** An echo server: every byte received is sent back. */
let echo: Server;
let proxy: FaultProxy;

beforeAll(async () => {
  echo = createServer((socket) => {
    // The proxy resets its upstream side on purpose.
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

beforeEach(async () => {
  proxy = await startFaultProxy({ host: '127.0.0.1', port: (echo.address() as AddressInfo).port });
});

afterEach(async () => {
  await proxy.close();
});

type Outcome = { kind: 'data'; text: string } | { kind: 'error'; code: string } | { kind: 'closed' } | { kind: 'timeout' };

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes `text` and reports the first thing that happens on the socket. */
function exchange(socket: Socket, text: string, timeoutMs = 400): Promise<Outcome> {
  return new Promise((resolve) => {
    socket.setTimeout(timeoutMs, () => resolve({ kind: 'timeout' }));
    socket.once('data', (chunk: Buffer) => resolve({ kind: 'data', text: chunk.toString() }));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'error', code: err.code ?? '' }));
    socket.once('close', () => resolve({ kind: 'closed' }));
    if (!socket.destroyed) socket.write(text);
  });
}

/** What a brand-new connection sees: an immediate reset, or a socket that then fails. */
function freshConnection(): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(proxy.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.setTimeout(2000, () => resolve({ kind: 'timeout' }));
    socket.once('data', (chunk: Buffer) => resolve({ kind: 'data', text: chunk.toString() }));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve({ kind: 'error', code: err.code ?? '' }));
    socket.once('close', () => resolve({ kind: 'closed' }));
    socket.once('connect', () => socket.write('hello'));
  });
}

test('pass forwards bytes both ways', async () => {
  const socket = await open();
  expect(await exchange(socket, 'ping')).toEqual({ kind: 'data', text: 'ping' });
  socket.destroy();
});

test('hang holds new and existing connections without forwarding, and pass lets them flow again', async () => {
  const existing = await open();
  expect(await exchange(existing, 'one')).toEqual({ kind: 'data', text: 'one' });
  proxy.setMode('hang');
  expect(await exchange(existing, 'two')).toEqual({ kind: 'timeout' });
  const fresh = await open();
  expect(await exchange(fresh, 'three')).toEqual({ kind: 'timeout' });

  const resumed = new Promise<string>((resolve) => fresh.once('data', (c: Buffer) => resolve(c.toString())));
  proxy.setMode('pass');
  expect(await resumed).toBe('three');
  existing.destroy();
  fresh.destroy();
});

test('refuse closes existing connections and resets new ones at once', async () => {
  const existing = await open();
  expect(await exchange(existing, 'one')).toEqual({ kind: 'data', text: 'one' });
  const closed = new Promise<void>((resolve) => existing.once('close', () => resolve()));
  existing.on('error', () => undefined);
  proxy.setMode('refuse');
  await closed;
  const fresh = await freshConnection();
  expect(['error', 'closed']).toContain(fresh.kind);
  if (fresh.kind === 'error') expect(fresh.code).toBe('ECONNRESET');
});

test('reset sends RST on existing connections and on new ones', async () => {
  const existing = await open();
  expect(await exchange(existing, 'one')).toEqual({ kind: 'data', text: 'one' });
  const failed = new Promise<string>((resolve) => existing.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? '')));
  proxy.setMode('reset');
  expect(await failed).toBe('ECONNRESET');
  const fresh = await freshConnection();
  expect(['error', 'closed']).toContain(fresh.kind);
  if (fresh.kind === 'error') expect(fresh.code).toBe('ECONNRESET');
});

test('switching back to pass serves new connections again', async () => {
  proxy.setMode('refuse');
  expect((await freshConnection()).kind).not.toBe('data');
  proxy.setMode('pass');
  const socket = await open();
  expect(await exchange(socket, 'back')).toEqual({ kind: 'data', text: 'back' });
  socket.destroy();
});
