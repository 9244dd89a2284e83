import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { BUNDLED_SCHEMA } from '@uptime/cli';
import { buildConfigFileSchema } from '../src/openapi/config-file-schema';
import { requestSchemas } from '../src/openapi/request-schemas';
import { useApiHarness } from './support/api-harness';

/** GET /api/v1/config.schema.json: the format of uptime.yaml (docs/config-as-code.md). */
const h = useApiHarness();

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const schema = buildConfigFileSchema();
const validate = ajv.compile(schema);

const FILE = {
  channels: [{ key: 'ops-slack', name: 'Ops Slack', type: 'slack', config: { webhook_url: '${SLACK_WEBHOOK_URL}' } }],
  monitors: [
    { key: 'api', name: 'API', type: 'http', url: 'https://api.example.com/health', check_interval: 60, channels: ['ops-slack'], tags: ['prod'] },
    { key: 'nightly-job', name: 'Nightly job', type: 'heartbeat', heartbeat_period: 86400, depends_on: ['api'] },
  ],
  maintenance_windows: [{ key: 'db', name: 'DB upgrade', monitors: ['api'], starts_at: '2026-11-28T01:00:00.000Z', duration_minutes: 60, repeat: 'weekly', weekdays: [6], timezone: 'Europe/Paris' }],
  status_pages: [{ key: 'public', slug: 'acme', title: 'Acme', monitors: ['api', 'nightly-job'], sections: [{ name: 'Jobs', monitors: ['nightly-job'] }], auto_incidents: true }],
};

describe('GET /api/v1/config.schema.json', () => {
  it('answers the schema without a caller', async () => {
    const res = await request(h.app).get('/api/v1/config.schema.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(schema)));
    expect(res.body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('accepts a file of every kind, secrets as ${NAME}', () => {
    expect([validate(FILE), validate.errors]).toEqual([true, null]);
  });

  it('takes its monitor fields from the API’s create body, with references by key', () => {
    const monitor = schema.properties!.monitors!.items!;
    const create = requestSchemas().MonitorCreate!;
    for (const field of ['check_interval', 'timeout', 'url', 'type', 'tags', 'heartbeat_period']) expect([field, monitor.properties![field]]).toEqual([field, create.properties![field]]);
    expect(monitor.properties!.depends_on!.items!.pattern).toBe('^[a-z0-9][a-z0-9_.-]{0,99}$');
    expect(monitor.properties!.managed_by).toBeUndefined();
    expect(monitor.required).toEqual(expect.arrayContaining(['key', 'name', 'type']));
  });

  it('refuses an unknown field, a missing key, an id list and a bound the API refuses, naming where', () => {
    const bad = {
      ...FILE,
      monitors: [{ ...FILE.monitors[0], colour: 'red' }, { name: 'No key', type: 'http', url: 'https://example.com' }, { ...FILE.monitors[0], key: 'b', check_interval: 0 }],
      status_pages: [
        { key: 'p', slug: 'acme', title: 'Acme', monitor_ids: [1] },
        { key: 'q', slug: 'acme-2', title: 'Acme', monitors: ['api'], sections: [{ name: 'API', monitor_ids: [1] }] },
      ],
    };
    expect(validate(bad)).toBe(false);
    const found = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`);
    expect(found).toEqual(
      expect.arrayContaining([
        '/monitors/0 additionalProperties {"additionalProperty":"colour"}',
        '/monitors/1 required {"missingProperty":"key"}',
        '/monitors/2/check_interval minimum {"comparison":">=","limit":1}',
        '/status_pages/0 additionalProperties {"additionalProperty":"monitor_ids"}',
        '/status_pages/0 required {"missingProperty":"monitors"}',
        // A section names its monitors by key too (docs/config-as-code.md).
        '/status_pages/1/sections/0 additionalProperties {"additionalProperty":"monitor_ids"}',
        '/status_pages/1/sections/0 required {"missingProperty":"monitors"}',
      ]),
    );
  });

  it('is the copy the CLI validates --offline with (else run `pnpm --filter @uptime/cli generate`)', () => {
    expect(BUNDLED_SCHEMA).toEqual(JSON.parse(JSON.stringify(schema)));
  });
});
