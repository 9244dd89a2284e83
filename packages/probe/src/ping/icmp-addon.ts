import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IcmpFamily } from './echo-packet';

/** An open ICMP socket of the addon: opaque to JavaScript. */
export type IcmpSocketHandle = { readonly __brand: 'IcmpSocketHandle' };

/** Called from the event loop for each datagram the socket received; `receivedAtMs`, the kernel's time of its arrival, is on the clock of `send()`'s answer. */
export type DatagramListener = (bytes: Buffer, from: string, receivedAtMs: number) => void;

/**
 * What packages/probe/native/icmp_socket.c exports: the system calls Node has no API for, and
 * nothing else (docs/monitors.md, "ICMP ping").
 */
export interface IcmpAddon {
  /**
   * An ICMP datagram socket (net.ipv4.ping_group_range), or a raw one (`raw`: CAP_NET_RAW) when
   * that is refused; non-blocking, polled on the event loop, never keeping the process alive.
   * Throws with the errno's code (EPERM, EACCES, EAFNOSUPPORT) when neither opens.
   */
  open(family: IcmpFamily, onDatagram: DatagramListener): { socket: IcmpSocketHandle; raw: boolean };
  /**
   * Sends `bytes` to `address` (an IP literal of the socket's family); answers when, in ms of the
   * clock the kernel stamps received datagrams with (the wall clock, as iputils). Throws with the errno's code.
   */
  send(socket: IcmpSocketHandle, bytes: Buffer, address: string): number;
  close(socket: IcmpSocketHandle): void;
}

/** Where scripts/build-icmp-addon.cjs writes the addon, for the Node that ran `pnpm install`. */
export const ICMP_ADDON_PATH = resolve(__dirname, '../../build/icmp_socket.node');

/** The loaded addon, or why there is none (not built, or built for another Node). */
export type IcmpAddonLoad = { addon: IcmpAddon } | { addon: null; reason: string };

let loaded: IcmpAddonLoad | undefined;

/** Loads the addon once per process. */
export function loadIcmpAddon(): IcmpAddonLoad {
  if (loaded === undefined) loaded = dlopenAddon(ICMP_ADDON_PATH);
  return loaded;
}

function dlopenAddon(file: string): IcmpAddonLoad {
  if (!existsSync(file)) return { addon: null, reason: `the ICMP socket addon was not built (no ${file}; docs/operations.md, "ICMP ping")` };
  const module = { exports: {} as IcmpAddon };
  try {
    process.dlopen(module, file);
  } catch (error) {
    return { addon: null, reason: `the ICMP socket addon does not load: ${(error as Error).message}` };
  }
  return { addon: module.exports };
}
