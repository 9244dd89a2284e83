import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from '../audit/audit-actions';
import type { AuditEntryResponse } from '../audit/audit-entry.presenter';
import { RESOURCE_ID_MAX } from '../audit/audit-log.params';
import { arrayOf, enumOf, INT32_MAX, int, nullable, objectOf, str, timestamp, type JsonSchema } from './json-schema';
import { bigId } from './schema-parts';

/** The longest field name an entry lists, and how many (a body has at most this many fields). */
const FIELD_NAME_MAX = 64;
const FIELDS_MAX = 64;
/** An IPv6 address in text, the longest form (audit_log.ip is varchar(45)). */
const IP_MAX = 45;
const EMAIL_MAX = 320;
const TOKEN_NAME_MAX = 100;

export const EXAMPLE_AUDIT_ENTRY: AuditEntryResponse = {
  id: 1017,
  action: 'monitor.update',
  resource_type: 'monitor',
  resource_id: '42',
  changed_fields: ['check_interval', 'name'],
  actor: { type: 'token', user_id: 7, email: 'ops@example.com', token_id: 12, token_name: 'deploy script' },
  ip: '203.0.113.9',
  created_at: '2026-11-22T10:00:00.000Z',
};

const id = (): JsonSchema => int({ minimum: 1, maximum: INT32_MAX });

/** The audit log's schemas by component name (docs/audit-log.md). */
export function auditSchemas(): Record<string, JsonSchema> {
  return {
    AuditEntry: objectOf<AuditEntryResponse>(
      {
        id: bigId(),
        action: enumOf(AUDIT_ACTIONS, { description: '`<resource type>.<verb>`' }),
        resource_type: enumOf(AUDIT_RESOURCE_TYPES),
        resource_id: nullable(str({ maxLength: RESOURCE_ID_MAX, description: "The resource's id (a badge's: its monitor's)" })),
        changed_fields: arrayOf(str({ maxLength: FIELD_NAME_MAX }), {
          maxItems: FIELDS_MAX,
          description: 'The names of the fields the request sent, sorted; never their values',
        }),
        actor: objectOf<AuditEntryResponse['actor']>(
          {
            type: enumOf(['user', 'token'], { description: '`token` when an API token authenticated the request' }),
            user_id: nullable(id()),
            email: nullable(str({ maxLength: EMAIL_MAX, description: 'The user’s address now; null once the user is deleted' })),
            token_id: nullable(id()),
            token_name: nullable(str({ maxLength: TOKEN_NAME_MAX, description: 'Null for a session, or once the token is revoked' })),
          },
          { description: 'Who made the change' },
        ),
        ip: nullable(str({ maxLength: IP_MAX, description: 'The client address (behind TRUST_PROXY, the forwarded one); null from the CLI' })),
        created_at: timestamp(),
      },
      { description: 'One change to the organization (docs/audit-log.md)' },
    ),
  };
}
