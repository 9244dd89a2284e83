import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';
import { createRedisConnection, liveChannel } from '@uptime/queues';

/** Called with the message as one Server-Sent Events frame, made once for every stream. */
type Listener = (frame: string) => void;

/**
 * The api process's one subscriber to the live channels (docs/web.md, "Live updates"). A channel
 * is subscribed while a stream of its organization is open here and dropped with the last one;
 * the connection itself opens with the first stream and closes with the last, so an api with no
 * stream open holds none. Every replica subscribes for its own streams: a message published once
 * reaches each replica that has a listener.
 */
export class LiveHub {
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  /** Calls `listener` with each message of the organization's channel until the returned function is called. */
  async listen(organizationId: number, listener: Listener): Promise<() => void> {
    const channel = liveChannel(this.prefix, organizationId);
    const subscriber = this.connection();
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await subscriber.subscribe(channel);
    }
    set.add(listener);
    return () => this.forget(channel, listener);
  }

  /** Streams open in this process (for the bench and tests). */
  get listening(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  private forget(channel: string, listener: Listener): void {
    const set = this.listeners.get(channel);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(channel);
    const subscriber = this.subscriber;
    if (!subscriber) return;
    if (this.listeners.size === 0) {
      this.subscriber = null;
      subscriber.disconnect();
    } else {
      subscriber.unsubscribe(channel).catch((err: unknown) => this.logger.debug({ err, channel }, 'live channel not unsubscribed'));
    }
  }

  private connection(): Redis {
    if (this.subscriber) return this.subscriber;
    const subscriber = createRedisConnection(this.redisUrl, 'uptime-api-live');
    subscriber.on('message', (channel: string, message: string) => {
      const listeners = this.listeners.get(channel);
      if (!listeners || listeners.size === 0) return;
      const frame = sseFrame(message);
      if (frame === null) return this.logger.debug({ channel }, 'live message without a type dropped');
      for (const listener of listeners) listener(frame);
    });
    subscriber.on('error', (err) => this.logger.debug({ err }, 'live subscriber error'));
    this.subscriber = subscriber;
    return subscriber;
  }
}

/** `event: <type>` and the message as its data; null for a message that is not a typed JSON object. */
function sseFrame(message: string): string | null {
  try {
    const type = (JSON.parse(message) as { type?: unknown }).type;
    return typeof type === 'string' && /^[a-z]+$/.test(type) ? `event: ${type}\ndata: ${message}\n\n` : null;
  } catch {
    return null;
  }
}
