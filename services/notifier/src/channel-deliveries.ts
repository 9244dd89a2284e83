import { DELIVERY_CHANNELS, type DeliveryChannel, type EntityManager, type SecretKeyring } from '@uptime/db';
import type { AlertAudience, AlertContext, AttachedChannel } from './alert';
import { SendError } from './channels/send-error';
import { queueDeliveries, type OpenDeliveryRow, type QueuedMessage } from './deliveries/delivery.repository';
import { recipientsOf, uniqueAddresses } from './recipients';

/** The recipient recorded on a delivery through a channel other than email: the channel, never its URL. */
export const channelRecipient = (channelId: number): string => `channel:${channelId}`;

/**
 * The channel a delivery goes through: its `channel_id`, or, once the channel was deleted (the
 * column is then null), the id its `channel:<id>` recipient still names; null for a delivery
 * recorded before the monitor's own settings became channels and never carried over.
 */
export function channelIdOf(target: { channelId: number | null; recipient: string }): number | null {
  if (target.channelId !== null) return target.channelId;
  const named = /^channel:(\d+)$/.exec(target.recipient);
  return named ? Number(named[1]) : null;
}

export const isDeliveryChannel = (type: string): type is DeliveryChannel => (DELIVERY_CHANNELS as readonly string[]).includes(type);

/** An email channel's addresses, each once. */
export function channelRecipients(channel: AttachedChannel): string[] {
  const list = channel.config.recipients;
  return uniqueAddresses(Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []);
}

/**
 * Where an email channel of `audience` sends: its addresses; the monitor's own email channel with
 * none, the organization's members with alerts on (docs/monitors.md), and nobody while the owner's
 * email_notifications preference is off.
 */
function emailRecipientsOf(channel: AttachedChannel, audience: Pick<AlertAudience, 'memberEmails' | 'emailNotifications'>): string[] {
  if (!channel.own) return channelRecipients(channel);
  if (!audience.emailNotifications) return [];
  return recipientsOf({ emailRecipients: channelRecipients(channel), memberEmails: audience.memberEmails });
}

/**
 * One delivery of a message per attached channel (docs/channels.md): an email channel per address
 * (an address two email channels name is sent once, by the deliveries' unique key); the others
 * once, named by the channel, so no secret URL is written on the delivery.
 */
export async function queueChannelDeliveries(
  tx: EntityManager,
  notificationId: number,
  audience: Pick<AlertAudience, 'channels' | 'memberEmails' | 'emailNotifications'>,
  message: QueuedMessage,
): Promise<OpenDeliveryRow[]> {
  const queued: OpenDeliveryRow[] = [];
  for (const channel of audience.channels) {
    const recipients = channel.type === 'email' ? emailRecipientsOf(channel, audience) : isDeliveryChannel(channel.type) ? [channelRecipient(channel.id)] : [];
    queued.push(...(await queueDeliveries(tx, notificationId, channel.type, recipients, { ...message, channelId: channel.id })));
  }
  return queued;
}

/** The channel `channelId` as the alert's monitor has it now: attached, or named by its escalation. */
export function channelOfAlert(alert: Pick<AlertContext, 'channels' | 'escalationChannels'>, channelId: number): AttachedChannel | undefined {
  return alert.channels.find((c) => c.id === channelId) ?? alert.escalationChannels.find((c) => c.id === channelId);
}

/**
 * The config of the channel a delivery goes through, its secrets opened with `keyring`: the
 * plain fields and the secret ones together. A channel detached or deleted since the delivery was
 * recorded, or secrets no configured key opens, cannot be sent to: a permanent failure.
 */
export function channelConfigOf(alert: AlertContext, channelId: number, keyring: SecretKeyring | undefined): Record<string, unknown> {
  const channel = channelOfAlert(alert, channelId);
  if (!channel) throw new SendError(`channel ${channelId} was detached or deleted before this delivery could be sent`, 'permanent');
  return openChannelConfig(channel, keyring);
}

/** A channel's plain fields and its secret ones together; secrets no configured key opens are a permanent failure. */
export function openChannelConfig(channel: AttachedChannel, keyring: SecretKeyring | undefined): Record<string, unknown> {
  const channelId = channel.id;
  if (channel.sealed === null) return channel.config;
  if (!keyring) throw new SendError('this notifier has no SECRETS_KEY to open channel secrets with', 'permanent');
  try {
    return { ...channel.config, ...(JSON.parse(keyring.open(channel.sealed)) as Record<string, unknown>) };
  } catch (err) {
    throw new SendError(`the secrets of channel ${channelId} do not open: ${(err as Error).message}`, 'permanent');
  }
}

/** A string field of a channel's config, or a permanent failure naming it. */
export function configString(config: Record<string, unknown>, field: string): string {
  const value = config[field];
  if (typeof value !== 'string' || value === '') throw new SendError(`the channel has no ${field}`, 'permanent');
  return value;
}
