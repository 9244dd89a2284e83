import type { IcmpSockets } from './icmp-sockets';
import type { Pinger } from './pinger';

/**
 * How a process sends ping checks' echo requests (docs/monitors.md, "ICMP ping"): its own ICMP
 * sockets through the native addon (IcmpSockets), or a `ping` process per check (a Pinger).
 */
export type PingBackend = Pinger | IcmpSockets;
