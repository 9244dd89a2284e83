/**
 * Every action the audit log records (docs/audit-log.md): `<resource type>.<verb>`. The one list:
 * recordAudit takes only these, and the audit-log filter accepts only these.
 */
export const AUDIT_ACTIONS = [
  'monitor.create',
  'monitor.update',
  'monitor.delete',
  'monitor.pause',
  'monitor.resume',
  'monitor.test',
  'monitor.alert_test',
  'monitor.alert_settings_update',
  'monitor.webhook_secret_rotate',
  'monitor.agents_assign',
  'monitor.agents_remove',
  'monitor.heartbeat_rotate',
  'status_page.create',
  'status_page.update',
  'status_page.delete',
  'status_page_incident.create',
  'status_page_incident.update',
  'status_page_incident.delete',
  'status_page_incident.post_update',
  'status_page_subscriber.remove',
  'maintenance_window.create',
  'maintenance_window.update',
  'maintenance_window.delete',
  'badge.create',
  'badge.revoke',
  'agent.create',
  'agent.update',
  'agent.delete',
  'agent.status_update',
  'agent.publishing_update',
  'agent.validate',
  'token.create',
  'token.revoke',
  'channel.create',
  'channel.update',
  'channel.delete',
  'channel.test',
  'notification.acknowledge',
  'notification.resolve',
  // Reserved for the organizations routes (docs/organizations.md).
  'organization.create',
  'organization.update',
  'organization.delete',
  'member.update',
  'member.remove',
  'invitation.create',
  'invitation.revoke',
  'invitation.accept',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of resource an entry names: the part of its action before the dot. */
export const AUDIT_RESOURCE_TYPES = [
  'monitor',
  'status_page',
  'status_page_incident',
  'status_page_subscriber',
  'maintenance_window',
  'badge',
  'agent',
  'token',
  'channel',
  'notification',
  'organization',
  'member',
  'invitation',
] as const;

export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/** The resource type of an action (`monitor.pause` → `monitor`). */
export function resourceTypeOf(action: AuditAction): AuditResourceType {
  return action.slice(0, action.indexOf('.')) as AuditResourceType;
}

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export function isAuditResourceType(value: string): value is AuditResourceType {
  return (AUDIT_RESOURCE_TYPES as readonly string[]).includes(value);
}
