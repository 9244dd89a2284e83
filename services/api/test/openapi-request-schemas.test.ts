import { AgentFieldsDto, AgentIdsDto, AgentStatusDto, TogglePublishingDto } from '../src/agents/agent.dto';
import { CreateTokenDto } from '../src/auth/tokens.dto';
import { parseInput } from '../src/http/validate';
import { AlertSettingsDto } from '../src/monitors/alert-settings.dto';
import { BulkRequestDto } from '../src/monitors/bulk.dto';
import { MonitorFieldsDto } from '../src/monitors/monitor-fields.dto';
import { PauseMonitorDto } from '../src/monitors/pause.dto';
import { buildOpenApiDocument } from '../src/openapi/document';
import { UpdatePreferencesDto } from '../src/preferences/preferences.dto';
import { documentContract } from './support/document-contract';

const doc = buildOpenApiDocument();

async function dtoAccepts(dto: new () => object, body: unknown): Promise<boolean> {
  try {
    await parseInput(dto, body);
    return true;
  } catch {
    return false;
  }
}

/**
 * Request schemas are generated from the DTOs; these bodies check that the DTO (what the API
 * validates with) and the document agree on each, accepted or refused.
 */
const SAMPLES: [string, new () => object, unknown[]][] = [
  [
    'MonitorUpdate',
    MonitorFieldsDto,
    [
      {},
      { name: 'Shop' },
      { name: '' },
      { name: null },
      { name: 'x'.repeat(201) },
      { url: 'https://shop.example.com/health' },
      { url: 'ftp://shop.example.com' },
      { url: 'http:shop.example.com' },
      { url: null },
      { method: 'POST' },
      { method: 'FETCH' },
      { expected_status: [200, 301] },
      { expected_status: [99] },
      { expected_status: '200' },
      { timeout: 5 },
      { timeout: 300 },
      { timeout: 4 },
      { timeout: 301 },
      { timeout: '30' },
      { timeout: 7.5 },
      { check_interval: 0 },
      { retry_count: 10 },
      { retry_count: 11 },
      { follow_redirects: false },
      { verify_ssl: 'no' },
      { headers: { Accept: 'text/html' } },
      { headers: { 'bad name': 'x' } },
      { headers: { Accept: 1 } },
      { headers: ['Accept'] },
      { body: null },
      { body: '{"a":1}' },
      { expected_content: '' },
      { expected_content: null },
      { json_path: '$.status' },
      { json_path: 'status' },
      { expected_json_value: null },
      { locations: ['eu-central'] },
      { locations: [''] },
      { tags: ['production', 'team:web'] },
      { tags: ['with space'] },
      { id: 1 },
      { status: 'online' },
    ],
  ],
  ['PauseRequest', PauseMonitorDto, [{}, { reason: 'deploy' }, { reason: null }, { reason: 5 }, { reason: 'x'.repeat(501) }, { paused: true }]],
  [
    'AlertSettingsUpdate',
    AlertSettingsDto,
    [{}, { email_enabled: false }, { email_enabled: 'yes' }, { email_recipients: ['ops@example.com'] }, { email_recipients: ['nope'] }, { alert_threshold: 1 }, { alert_threshold: 0 }, { alert_threshold: 101 }, { slack_enabled: null }, { reminder_interval_minutes: 5 }, { reminder_interval_minutes: null }, { reminder_interval_minutes: 4 }, { reminder_interval_minutes: 1441 }, { escalation_recipients: ['lead@example.com'], escalation_after_minutes: 30 }, { escalation_recipients: ['nope'] }, { escalation_recipients: Array.from({ length: 21 }, (_v, i) => `u${i}@example.com`) }, { escalation_after_minutes: 1440 }, { escalation_after_minutes: 2.5 }],
  ],
  [
    'BulkRequest',
    BulkRequestDto,
    [
      { action: 'pause', monitor_ids: [1, 2] },
      { action: 'stop', monitor_ids: [1] },
      { action: 'pause', monitor_ids: [] },
      { action: 'pause', monitor_ids: [0] },
      { action: 'pause' },
      { monitor_ids: [1] },
      { action: 'pause', monitor_ids: [1], reason: null },
      { action: 'update', monitor_ids: [1], settings: { timeout: 10 } },
      { action: 'update', monitor_ids: [1], settings: 'fast' },
      { action: 'pause', monitor_ids: [1], extra: true },
    ],
  ],
  [
    'PreferencesUpdate',
    UpdatePreferencesDto,
    [{}, { timezone: 'Europe/Berlin' }, { timezone: '+02:00' }, { theme: 'dark' }, { theme: 'blue' }, { default_timeout: 4 }, { default_check_interval: 60 }, { default_locations: ['eu'] }, { email_notifications: null }, { language: 'en' }],
  ],
  [
    'AgentUpdate',
    AgentFieldsDto,
    [{}, { name: 'Frankfurt' }, { name: '' }, { url: 'https://agent.example.com' }, { url: 'https://agent.example.com/?k=1' }, { url: 'https://user:pw@agent.example.com' }, { url: 'https://agent.example.com/#x' }, { is_public: true }, { is_public: 'true' }, { secret: 'x' }],
  ],
  ['AgentStatusUpdate', AgentStatusDto, [{ status: 'maintenance' }, { status: 'active' }, { status: 'unreachable' }, {}]],
  ['TogglePublishing', TogglePublishingDto, [{}, { is_public: false }, { is_public: 1 }]],
  ['AgentIds', AgentIdsDto, [{ agent_ids: [1, 2] }, { agent_ids: [] }, { agent_ids: ['1'] }, {}, { agent_ids: [1], monitor_id: 2 }]],
  ['TokenCreate', CreateTokenDto, [{ name: 'ci' }, { name: 'ci', expires_in_days: 30 }, { name: '' }, { name: 'ci', expires_in_days: 0 }, { name: 'ci', expires_in_days: 3651 }, {}, { name: 'ci', token: 'upt_x' }]],
];

describe('request schemas generated from the DTOs', () => {
  it.each(SAMPLES)('%s accepts exactly the bodies its DTO accepts', async (name, dto, bodies) => {
    const schema = { $ref: `#/components/schemas/${name}` };
    const accepted: string[] = [];
    const refused: string[] = [];
    for (const body of bodies) {
      const byDto = await dtoAccepts(dto, body);
      const byDocument = documentContract().schemaProblems(schema, body).length === 0;
      expect([JSON.stringify(body), byDocument]).toEqual([JSON.stringify(body), byDto]);
      (byDto ? accepted : refused).push(JSON.stringify(body));
    }
    // Every table holds both kinds, so a schema that accepts (or refuses) everything fails.
    expect(accepted.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
  });

  it('requires what the create routes require and lists the monitor types', () => {
    const schemas = doc.components.schemas;
    expect(schemas.MonitorCreate!.required).toEqual(expect.arrayContaining(['name', 'type']));
    // A url, unless the monitor is a heartbeat (docs/heartbeats.md).
    expect(schemas.MonitorCreate!.anyOf).toEqual([
      expect.objectContaining({ required: ['url'] }),
      { properties: { type: { const: 'heartbeat' } }, required: ['type'] },
    ]);
    expect(schemas.MonitorCreate!.properties!.type!.enum).toEqual(['http', 'tcp', 'dns', 'ping', 'heartbeat']);
    expect(schemas.MonitorUpdate!.required).toBeUndefined();
    expect(schemas.AgentCreate!.required).toEqual(expect.arrayContaining(['name', 'location', 'url']));
    expect(schemas.BulkRequest!.properties!.settings).toEqual(expect.objectContaining({ $ref: '#/components/schemas/MonitorUpdate' }));
  });

  it('documents bounds and nullability as the DTOs decide them', () => {
    const fields = doc.components.schemas.MonitorUpdate!.properties!;
    expect(fields.timeout).toEqual(expect.objectContaining({ type: 'integer', minimum: 5, maximum: 300 }));
    expect(fields.body!.type).toEqual(['string', 'null']);
    expect(fields.name!.type).toBe('string');
    expect(doc.components.schemas.PauseRequest!.properties!.reason!.type).toEqual(['string', 'null']);
    expect(doc.components.schemas.MonitorUpdate!.additionalProperties).toBe(false);
  });
});
