import type { Creator } from '../auth/caller';
import { queryAffected, queryRows, type DataSource, type EntityManager } from '@uptime/db';
import type { ChannelType } from '@uptime/probe';
import type { ManagedBy } from '../http/resource-key';

/** A channel's row: its secrets still sealed. */
export interface ChannelRow {
  id: number;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  sealed_secrets: string | null;
  secret_fields: string[];
  is_default: boolean;
  key: string | null;
  managed_by: ManagedBy | null;
  /** Per config field, the fingerprint of the value a file applied (docs/config-as-code.md, "Secrets"). */
  config_fingerprints: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

type Db = DataSource | EntityManager;

const COLUMNS = 'id, name, type, config, sealed_secrets, secret_fields, is_default, key, managed_by, config_fingerprints, created_at, updated_at';

/** The organization's channel; null when there is none. `lock` holds the row until the transaction ends. */
export async function readOwnChannel(db: Db, organizationId: number, id: number, lock = false): Promise<ChannelRow | null> {
  const [row]: ChannelRow[] = await db.query(
    `SELECT ${COLUMNS} FROM channels WHERE id = $1 AND organization_id = $2 AND monitor_id IS NULL${lock ? ' FOR UPDATE' : ''}`,
    [id, organizationId],
  );
  return row ?? null;
}

/** One page of the organization's channels, id order, and how many there are. */
export async function listOwnChannels(ds: DataSource, organizationId: number, limit: number, offset: number): Promise<{ rows: ChannelRow[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT ${COLUMNS} FROM channels WHERE organization_id = $1 AND monitor_id IS NULL ORDER BY id LIMIT $2 OFFSET $3`, [organizationId, limit, offset]) as Promise<ChannelRow[]>,
    ds.query(`SELECT count(*)::int AS total FROM channels WHERE organization_id = $1 AND monitor_id IS NULL`, [organizationId]) as Promise<{ total: number }[]>,
  ]);
  return { rows, total: count?.total ?? 0 };
}

export interface ChannelWrite {
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  sealedSecrets: string | null;
  secretFields: string[];
  isDefault: boolean;
  key: string | null;
  managedBy: ManagedBy | null;
  configFingerprints: Record<string, string>;
}

export async function insertChannel(em: EntityManager, creator: Creator, c: ChannelWrite): Promise<ChannelRow> {
  const [row]: ChannelRow[] = await em.query(
    `INSERT INTO channels (organization_id, owner_id, name, type, config, sealed_secrets, secret_fields, is_default, key, managed_by, config_fingerprints)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
    [creator.organizationId, creator.userId, c.name, c.type, JSON.stringify(c.config), c.sealedSecrets, c.secretFields, c.isDefault, c.key, c.managedBy, JSON.stringify(c.configFingerprints)],
  );
  return row!;
}

/** Writes every field of the channel (the service merged them over the locked row). */
export async function updateChannel(em: EntityManager, id: number, c: Omit<ChannelWrite, 'type'>): Promise<ChannelRow> {
  const rows = await queryRows<ChannelRow>(
    em,
    `UPDATE channels SET name = $2, config = $3, sealed_secrets = $4, secret_fields = $5, is_default = $6, key = $7, managed_by = $8, config_fingerprints = $9, updated_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, c.name, JSON.stringify(c.config), c.sealedSecrets, c.secretFields, c.isDefault, c.key, c.managedBy, JSON.stringify(c.configFingerprints)],
  );
  return rows[0]!;
}

/** Attaches the channel to every monitor of its organization that lacks it; how many gained it. */
export async function attachToAllMonitors(em: EntityManager, organizationId: number, channelId: number): Promise<number> {
  return queryAffected(
    em,
    `INSERT INTO monitor_channels (monitor_id, channel_id)
     SELECT id, $2 FROM monitors WHERE organization_id = $1
     ON CONFLICT DO NOTHING`,
    [organizationId, channelId],
  );
}

/** Deletes the organization's channel (its attachments go with it); how many monitors it was attached to, or null when there is none. */
export async function deleteOwnChannel(em: EntityManager, organizationId: number, id: number): Promise<number | null> {
  const [attached]: { monitors: number }[] = await em.query(
    `SELECT count(*)::int AS monitors FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id WHERE c.id = $1 AND c.organization_id = $2 AND c.monitor_id IS NULL`,
    [id, organizationId],
  );
  const deleted = await queryAffected(em, `DELETE FROM channels WHERE id = $1 AND organization_id = $2 AND monitor_id IS NULL`, [id, organizationId]);
  return deleted > 0 ? (attached?.monitors ?? 0) : null;
}

/** Up to `limit` sealed channel boxes after id `afterId`, id order, of every organization (the key's rotation). */
export async function sealedChannelsAfter(db: Db, afterId: number, limit: number): Promise<{ id: number; sealed_secrets: string }[]> {
  return db.query(`SELECT id, sealed_secrets FROM channels WHERE id > $1 AND sealed_secrets IS NOT NULL ORDER BY id LIMIT $2`, [afterId, limit]);
}

/** Replaces a channel's box if it is still `previous` (a concurrent update wins); whether it did. */
export async function replaceSealedSecrets(em: EntityManager, id: number, previous: string, sealed: string): Promise<boolean> {
  return (await queryAffected(em, `UPDATE channels SET sealed_secrets = $3 WHERE id = $1 AND sealed_secrets = $2`, [id, previous, sealed])) > 0;
}

/** The organization's channels attached to the monitor, id order (its own channels are its alert-settings fields). */
export async function channelIdsOfMonitor(db: Db, monitorId: number): Promise<number[]> {
  const rows: { channel_id: number }[] = await db.query(
    `SELECT mc.channel_id FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id
      WHERE mc.monitor_id = $1 AND c.monitor_id IS NULL ORDER BY mc.channel_id`,
    [monitorId],
  );
  return rows.map((r) => r.channel_id);
}

/** Those of `ids` that are not the organization's channels; the organization's stay locked against deletion until the transaction ends. */
export async function foreignChannelIds(em: EntityManager, organizationId: number, ids: number[]): Promise<number[]> {
  const own: { id: number }[] = await em.query(`SELECT id FROM channels WHERE organization_id = $1 AND monitor_id IS NULL AND id = ANY($2) FOR SHARE`, [organizationId, ids]);
  const owned = new Set(own.map((r) => r.id));
  return ids.filter((id) => !owned.has(id));
}

/** Replaces the organization's channels attached to the monitor; its own channels stay as they are. */
export async function setMonitorChannels(em: EntityManager, monitorId: number, channelIds: number[]): Promise<void> {
  await em.query(
    `DELETE FROM monitor_channels mc USING channels c WHERE mc.monitor_id = $1 AND c.id = mc.channel_id AND c.monitor_id IS NULL`,
    [monitorId],
  );
  await em.query(`INSERT INTO monitor_channels (monitor_id, channel_id) SELECT $1, unnest($2::int[])`, [monitorId, channelIds]);
}

/** The organization's channels the monitor's escalation goes to, id order (docs/alert-rules.md). */
export async function escalationChannelIdsOfMonitor(db: Db, monitorId: number): Promise<number[]> {
  const rows: { channel_id: number }[] = await db.query(`SELECT channel_id FROM monitor_escalation_channels WHERE monitor_id = $1 ORDER BY channel_id`, [monitorId]);
  return rows.map((r) => r.channel_id);
}

/** Replaces the channels the monitor's escalation goes to. */
export async function setEscalationChannels(em: EntityManager, monitorId: number, channelIds: number[]): Promise<void> {
  await em.query(`DELETE FROM monitor_escalation_channels WHERE monitor_id = $1`, [monitorId]);
  await em.query(`INSERT INTO monitor_escalation_channels (monitor_id, channel_id) SELECT $1, unnest($2::int[])`, [monitorId, channelIds]);
}

/** Attaches the organization's default channels to its new monitors. */
export async function attachDefaultChannels(em: EntityManager, organizationId: number, monitorIds: readonly number[]): Promise<void> {
  await em.query(
    `INSERT INTO monitor_channels (monitor_id, channel_id)
     SELECT m.id, c.id FROM unnest($2::int[]) AS m (id) CROSS JOIN channels c
      WHERE c.organization_id = $1 AND c.monitor_id IS NULL AND c.is_default
     ON CONFLICT DO NOTHING`,
    [organizationId, [...monitorIds]],
  );
}
