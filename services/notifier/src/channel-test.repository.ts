import { queryRows, type EntityManager } from '@uptime/db';
import type { AttachedChannel } from './alert';

/** A channel to send a test through: its name, type, plain config and sealed secrets. */
export interface TestChannel extends AttachedChannel {
  name: string;
}

/** The channel `channelId`, or null when it is gone. */
export async function loadTestChannel(db: EntityManager, channelId: number): Promise<TestChannel | null> {
  const [row] = await queryRows<TestChannel>(db, `SELECT id, name, type, config, sealed_secrets AS sealed FROM channels WHERE id = $1`, [channelId]);
  return row ?? null;
}
