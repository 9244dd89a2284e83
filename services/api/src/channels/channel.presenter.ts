import { channelFieldsOf } from '@uptime/probe';
import type { ChannelRow } from './channels.repository';
import type { SavedChannel } from './channels.service';

/**
 * A channel as its organization sees it: the config's plain fields, and for each secret field
 * `<field>_set` (never the value), but for a secret this very request generated.
 */
export function toChannelResponse(row: ChannelRow, generated?: Record<string, string>) {
  const config: Record<string, unknown> = {};
  for (const field of channelFieldsOf(row.type)) {
    if (field.secret) config[`${field.wire}_set`] = row.secret_fields.includes(field.wire);
    else config[field.wire] = row.config[field.wire] ?? null;
  }
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    config: { ...config, ...generated },
    is_default: row.is_default,
    key: row.key,
    managed_by: row.managed_by,
    config_fingerprints: row.config_fingerprints,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type ChannelResponse = ReturnType<typeof toChannelResponse>;

/** A saved channel: with apply_to_all_monitors, how many monitors gained it. */
export function toSavedChannelResponse(saved: SavedChannel) {
  return {
    ...toChannelResponse(saved.row, saved.generated),
    ...(saved.attachedMonitors === undefined ? {} : { attached_monitors: saved.attachedMonitors }),
  };
}
