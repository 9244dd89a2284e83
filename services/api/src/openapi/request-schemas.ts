import { HTTP_URL_MAX_LENGTH } from '@uptime/probe';
import { AGENT_REQUIRED_ON_CREATE } from '../agents/agent-input';
import { AgentFieldsDto, AgentIdsDto, AgentStatusDto, TogglePublishingDto } from '../agents/agent.dto';
import { CreateTokenDto } from '../auth/tokens.dto';
import { AlertSettingsDto } from '../monitors/alert-settings.dto';
import { ESCALATION_NOTES } from './escalation-schemas';
import { BulkRequestDto } from '../monitors/bulk.dto';
import { BulkCreateDto, BulkUpdateDto, BulkUpdateItemDto } from '../monitors/bulk-write.dto';
import { MonitorFieldsDto } from '../monitors/monitor-fields.dto';
import { MONITOR_REQUIRED_ON_CREATE } from '../monitors/monitor-input';
import { SUPPORTED_MONITOR_TYPES } from '../monitors/monitor-type';
import { PauseMonitorDto } from '../monitors/pause.dto';
import { UpdatePreferencesDto } from '../preferences/preferences.dto';
import { CHECK_FIELD_NAMES, CHECK_FIELD_SPECS, type FieldSpec } from '@uptime/probe';
import { annotate, schemaOfDto } from './dto-schema';
import { enumOf, ref, type JsonSchema } from './json-schema';

/**
 * Request bodies, generated from the DTOs the routes validate with (dto-schema.ts). What a DTO
 * cannot say by itself is added here: descriptions and defaults, the fields a create requires
 * (each resource's parse<Resource>Create checks them), and `type`, which parseMonitorCreate
 * checks against SUPPORTED_MONITOR_TYPES before the DTO.
 */
function monitorFields(): JsonSchema {
  return annotate(schemaOfDto(MonitorFieldsDto), {
    ...checkFieldNotes(),
    type: enumOf(SUPPORTED_MONITOR_TYPES, { description: 'http (url http:// or https://), tcp (url tcp://HOST:PORT or tls://HOST:PORT), dns (url dns://NAME), ping (url ping://HOST; ICMP echo requests, ping_count of them) or heartbeat (no url: pinged by the job it watches, docs/heartbeats.md); anything else is 400 INVALID_MONITOR_TYPE. A field of another type is a 400 VALIDATION_ERROR naming it; a PATCH changes the type only with a url of the new type, and never to or from heartbeat (docs/monitors.md)' }),
    heartbeat_period: { description: 'Heartbeat monitors: seconds between expected pings; exactly one of this and heartbeat_cron; null clears it' },
    heartbeat_cron: { description: 'Heartbeat monitors: a 5-field cron expression (minute hour day month weekday) of the times pings are expected; exactly one of this and heartbeat_period; null clears it' },
    heartbeat_timezone: { description: 'Heartbeat monitors with heartbeat_cron: the IANA zone it is read in; default UTC' },
    heartbeat_grace: { description: 'Heartbeat monitors: seconds after the due time before the monitor goes offline', default: 300 },
    timeout: { description: `${CHECK_FIELD_SPECS.timeout.description}; default: the preference default_timeout (30)`, default: 30 },
    check_interval: { description: 'Seconds between checks, at least MIN_CHECK_INTERVAL_SECONDS (30); default: the preference default_check_interval (300)', default: 300 },
    response_time_threshold: { description: 'Milliseconds; a successful check slower than this puts the monitor in warning (slow); null (the default) turns it off (docs/alert-rules.md)' },
    depends_on: {
      description: "Ids of the caller's other monitors this one depends on; while one of them is offline, this monitor's downtime notification is recorded as suppressed and sent to nobody. A cycle or another user's id is 400 VALIDATION_ERROR (docs/alert-rules.md)",
      default: [],
    },
    recovery_threshold: { description: 'Successes in a row needed to go from offline to online (docs/alert-rules.md)', default: 1 },
    locations: { description: 'Check locations', default: [] },
    tags: { default: [] },
  });
}

/**
 * Each field of the check as its declaration describes it (packages/probe/src/http/fields.ts),
 * with what a body may do beyond the answer's values: null clears, the method's case does not
 * matter. Its default, where it is a value (null is said by "null clears it").
 */
function checkFieldNotes(): Record<string, JsonSchema> {
  const notes: Record<string, JsonSchema> = {};
  for (const field of CHECK_FIELD_NAMES) {
    const spec: FieldSpec = CHECK_FIELD_SPECS[field];
    const caseInsensitive = spec.type.kind === 'choice' && spec.type.upperCase ? ' (case-insensitive)' : '';
    const clears = spec.nullable ? '; null clears it' : '';
    notes[spec.wire] = {
      description: `${spec.description}${caseInsensitive}${clears}`,
      ...(spec.default !== undefined && spec.default !== null ? { default: spec.default } : {}),
    };
  }
  return notes;
}

/** Request-body schemas by component name. */
export function requestSchemas(): Record<string, JsonSchema> {
  const fields = monitorFields();
  const bulk = annotate(schemaOfDto(BulkRequestDto), {
    monitor_ids: { description: 'Duplicates are acted on once' },
    reason: { description: 'Only with action pause' },
  });
  // The DTO only says "an object": the route validates it as a PATCH body.
  bulk.properties = {
    ...bulk.properties,
    settings: { ...ref('MonitorUpdate'), type: 'object', minProperties: 1, description: 'Required with action update, validated like PATCH; applied to each monitor' },
  };
  return {
    MonitorCreate: {
      ...annotate(fields, {}, MONITOR_REQUIRED_ON_CREATE.filter((f) => f !== 'url')),
      // A heartbeat has no url (docs/heartbeats.md); every other type requires one.
      anyOf: [
        { properties: { url: { type: 'string', maxLength: HTTP_URL_MAX_LENGTH } }, required: ['url'] },
        { properties: { type: { const: 'heartbeat' } }, required: ['type'] },
      ],
      description: 'A new monitor',
    },
    MonitorUpdate: { ...fields, description: 'PUT and PATCH: a partial body, each field validated as on create' },
    PauseRequest: annotate(schemaOfDto(PauseMonitorDto), { reason: { description: 'Why; blank or null means none' } }),
    AlertSettingsUpdate: annotate(schemaOfDto(AlertSettingsDto), {
      email_recipients: { description: "Empty: the owner's address" },
      slack_webhook_url: {
        description: "Slack's incoming-webhook URL; required while slack_enabled; the monitor URL's address rules apply",
        examples: ['https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
      },
      webhook_url: { description: "Required while webhook_enabled; the monitor URL's address rules apply", examples: ['https://ops.example.com/hooks/uptime'] },
      webhook_enabled: { description: 'Enabling it the first time generates webhook_secret, shown in that answer only' },
      alert_threshold: { description: 'Consecutive failures before offline' },
      ...ESCALATION_NOTES,
      alert_on_slow: { description: 'A slow notification and email when the monitor becomes slow, and an email when it stops (docs/alert-rules.md)' },
      certificate_expiry_days: { description: 'A certificate notification once fewer days remain before certificate_expires_at; 0: off (docs/alert-rules.md)' },
    }),
    BulkRequest: bulk,
    // The DTOs only say "objects": the route validates each item as a create or PATCH body.
    BulkCreateRequest: annotate(schemaOfDto(BulkCreateDto), {
      monitors: { items: ref('MonitorCreate'), description: 'Each validated like POST /monitors; created in this order, all or none' },
    }),
    BulkUpdateRequest: annotate(schemaOfDto(BulkUpdateDto), {
      updates: {
        items: annotate(schemaOfDto(BulkUpdateItemDto), {
          settings: { ...ref('MonitorUpdate'), type: 'object', minProperties: 1, description: 'Validated like PATCH /monitors/{id}; applied to monitor `id`' },
        }),
        description: 'Each monitor at most once; all applied or none',
      },
    }),
    AgentCreate: annotate(schemaOfDto(AgentFieldsDto), { is_public: { default: false } }, AGENT_REQUIRED_ON_CREATE),
    AgentUpdate: { ...schemaOfDto(AgentFieldsDto), description: 'A partial body' },
    AgentStatusUpdate: schemaOfDto(AgentStatusDto),
    TogglePublishing: annotate(schemaOfDto(TogglePublishingDto), { is_public: { description: 'Absent: flip' } }),
    AgentIds: schemaOfDto(AgentIdsDto),
    PreferencesUpdate: { ...schemaOfDto(UpdatePreferencesDto), description: 'A partial body; unknown keys are 400' },
    TokenCreate: annotate(schemaOfDto(CreateTokenDto), {
      expires_in_days: { description: 'Absent: never expires' },
      scope: { description: 'Absent: write. A read token is refused every unsafe method (403 INSUFFICIENT_PERMISSIONS)' },
      organization_id: { description: 'The organization the token acts in, of which the caller must be a member (else 404 ORGANIZATION_NOT_FOUND). Absent: the current one' },
    }),
  };
}
