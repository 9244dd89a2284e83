import { actorLabel, AUDIT_ACTIONS, isAuditAction, isAuditResourceType, resourceLabel } from '../src/pages/audit-log/audit-filters';

const actor = { type: 'user' as const, user_id: 7, email: 'ada@example.com', token_id: null, token_name: null };

describe("the audit log page's labels and filters", () => {
  it('names a session user by email, a token by its name, a revoked token by its id, a deleted user as such', () => {
    expect(actorLabel(actor)).toBe('ada@example.com');
    expect(actorLabel({ ...actor, type: 'token', token_id: 3, token_name: 'ci' })).toBe('ada@example.com via token “ci”');
    expect(actorLabel({ ...actor, type: 'token', token_id: 3, token_name: null })).toBe('ada@example.com via revoked token 3');
    expect(actorLabel({ ...actor, user_id: null, email: null })).toBe('A deleted user');
  });

  it('names the resource by kind and id, a badge by its monitor', () => {
    expect(resourceLabel({ resource_type: 'status_page', resource_id: '12' })).toBe('Status page 12');
    expect(resourceLabel({ resource_type: 'badge', resource_id: '4' })).toBe('Badge of monitor 4');
    expect(resourceLabel({ resource_type: 'organization', resource_id: null })).toBe('Organization');
  });

  it('accepts only known actions and resource types from the address bar', () => {
    expect(AUDIT_ACTIONS).toContain('monitor.pause');
    expect(isAuditAction('monitor.pause')).toBe(true);
    expect(isAuditAction('monitor.explode')).toBe(false);
    expect(isAuditAction('toString')).toBe(false);
    expect(isAuditResourceType('agent')).toBe(true);
    expect(isAuditResourceType(null)).toBe(false);
  });
});
