import type { Schema } from '@uptime/client';

export type AuditAction = Schema<'AuditEntry'>['action'];
export type AuditResourceType = Schema<'AuditEntry'>['resource_type'];

// Records over the generated types: an action or resource type the API adds is a type error here
// until the filters offer it.
const ACTIONS: Record<AuditAction, true> = {
  'monitor.create': true,
  'monitor.update': true,
  'monitor.delete': true,
  'monitor.pause': true,
  'monitor.resume': true,
  'monitor.test': true,
  'monitor.alert_test': true,
  'monitor.alert_settings_update': true,
  'monitor.webhook_secret_rotate': true,
  'monitor.agents_assign': true,
  'monitor.heartbeat_rotate': true,
  'monitor.agents_remove': true,
  'status_page.create': true,
  'status_page.update': true,
  'status_page.delete': true,
  'status_page_incident.create': true,
  'status_page_incident.update': true,
  'status_page_incident.delete': true,
  'status_page_incident.post_update': true,
  'status_page_subscriber.remove': true,
  'maintenance_window.create': true,
  'maintenance_window.update': true,
  'maintenance_window.delete': true,
  'badge.create': true,
  'badge.revoke': true,
  'agent.create': true,
  'agent.update': true,
  'agent.delete': true,
  'agent.status_update': true,
  'agent.publishing_update': true,
  'agent.validate': true,
  'token.create': true,
  'token.revoke': true,
  'channel.create': true,
  'channel.update': true,
  'channel.delete': true,
  'channel.test': true,
  'notification.acknowledge': true,
  'notification.resolve': true,
  'organization.create': true,
  'organization.update': true,
  'organization.delete': true,
  'member.update': true,
  'member.remove': true,
  'invitation.create': true,
  'invitation.revoke': true,
  'invitation.accept': true,
};

const RESOURCE_TYPES: Record<AuditResourceType, string> = {
  monitor: 'Monitor',
  status_page: 'Status page',
  status_page_incident: 'Status page incident',
  status_page_subscriber: 'Status page subscriber',
  maintenance_window: 'Maintenance window',
  badge: 'Badge',
  agent: 'Agent',
  token: 'API token',
  channel: 'Channel',
  notification: 'Notification',
  organization: 'Organization',
  member: 'Member',
  invitation: 'Invitation',
};

export const AUDIT_ACTIONS = Object.keys(ACTIONS) as AuditAction[];
export const AUDIT_RESOURCE_TYPES = Object.entries(RESOURCE_TYPES).map(([id, label]) => ({ id: id as AuditResourceType, label }));

// Own keys only: `?action=toString` must not pass for an action.
const has = (record: object, key: string | null): boolean => key !== null && Object.prototype.hasOwnProperty.call(record, key);
export const isAuditAction = (value: string | null): value is AuditAction => has(ACTIONS, value);
export const isAuditResourceType = (value: string | null): value is AuditResourceType => has(RESOURCE_TYPES, value);

/** "Monitor 42"; a badge is named by its monitor. */
export function resourceLabel(entry: Pick<Schema<'AuditEntry'>, 'resource_type' | 'resource_id'>): string {
  const kind = RESOURCE_TYPES[entry.resource_type];
  if (entry.resource_id === null) return kind;
  return entry.resource_type === 'badge' ? `Badge of monitor ${entry.resource_id}` : `${kind} ${entry.resource_id}`;
}

/** Who did it: the user's address, and the token's name when a token authenticated the request. */
export function actorLabel(actor: Schema<'AuditEntry'>['actor']): string {
  const who = actor.email ?? (actor.user_id === null ? 'A deleted user' : `User ${actor.user_id}`);
  if (actor.type === 'user') return who;
  const token = actor.token_name === null ? `revoked token ${actor.token_id}` : `token “${actor.token_name}”`;
  return `${who} via ${token}`;
}
