import { randomBytes } from 'node:crypto';

/** A heartbeat's ping token: 256 random bits, URL-safe (docs/heartbeats.md, "Its address"). */
export const newHeartbeatToken = (): string => randomBytes(32).toString('base64url');

/** The address a heartbeat's job pings. */
export const heartbeatUrlOf = (publicUrl: string, token: string): string => `${publicUrl}/ping/${token}`;

/** What a ping token looks like: anything else is not looked up at all. */
export const HEARTBEAT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
