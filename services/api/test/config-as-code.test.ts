import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { runCli } from '@uptime/cli';
import { aCaller } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

/** The `uptime` CLI (packages/cli) against a real instance: docs/config-as-code.md. */
const h = useApiHarness();
jest.setTimeout(60_000);
let server: Server;
let url: string;
let token: string;
let auth: string;
const dir = mkdtempSync(path.join(os.tmpdir(), 'uptime-cfg-'));
const SLACK_URL = 'https://hooks.slack.example/services/T000/B000/very-secret-path-7c1e';

beforeAll(async () => {
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(async () => {
  ({ token, auth } = await aCaller(h.ds));
});

async function uptime(argv: string[], env: Record<string, string> = {}, confirm?: (q: string) => Promise<boolean>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { env: { UPTIME_URL: url, UPTIME_TOKEN: token, ...env }, out: (t) => (out += t), err: (t) => (err += t), confirm });
  return { code, out, err };
}

let files = 0;
function aFile(text: string): string {
  const file = path.join(dir, `uptime-${++files}.yaml`);
  writeFileSync(file, text);
  return file;
}

const api = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', p: string, as = auth) => request(h.app)[method](`/api/v1${p}`).set('Authorization', as);
const monitors = async (): Promise<{ id: number; key: string | null; managed_by: string | null; name: string; check_interval: number }[]> => (await api('get', '/monitors?limit=100')).body.data;

describe('export, then apply', () => {
  it('takes back what the UI made with no change but the keys, adopting it rather than duplicating it; a second apply changes nothing', async () => {
    const channel = (await api('post', '/channels').send({ name: 'Ops Slack', type: 'slack', config: { webhook_url: SLACK_URL } })).body.data;
    const db = (await api('post', '/monitors').send({ name: 'Database', type: 'tcp', url: 'tcp://db.example.test:5432', check_interval: 60 })).body.data;
    const site = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://www.example.test/', depends_on: [db.id], tags: ['web'] })).body.data;
    await api('post', '/monitors').send({ name: 'Nightly backup', type: 'heartbeat', heartbeat_period: 86400 }).expect(201);
    await api('put', `/monitors/${site.id}/alerts`).send({ channel_ids: [channel.id] }).expect(200);
    await api('post', '/maintenance-windows').send({ name: 'DB upgrade', monitor_ids: [db.id], starts_at: '2026-11-28T01:00:00.000Z', duration_minutes: 60, repeat: 'weekly', weekdays: [6], timezone: 'Europe/Paris' }).expect(201);
    await api('post', '/status-pages').send({ slug: `acme-${site.id}`, title: 'Acme', monitor_ids: [site.id, db.id] }).expect(201);

    const exported = await uptime(['export']);
    expect(exported.code).toBe(0);
    expect(exported.out.split('\n')[0]).toBe(`# yaml-language-server: $schema=${url}/api/v1/config.schema.json`);
    expect(exported.out).not.toContain('very-secret-path');
    expect(exported.out).toContain('webhook_url: ${OPS_SLACK_WEBHOOK_URL}');
    expect(exported.out).toMatch(/depends_on:\n\s+- database\n/);
    const file = aFile(exported.out);

    expect((await uptime(['validate', '-f', file], { OPS_SLACK_WEBHOOK_URL: SLACK_URL })).code).toBe(0);
    const applied = await uptime(['apply', '-f', file], { OPS_SLACK_WEBHOOK_URL: SLACK_URL });
    expect(applied.code).toBe(0);
    // Six resources adopted (a channel, three monitors, a window, a page): only their key and
    // managed_by change, and the channel's secret is sent once, the server having no fingerprint of it.
    const changedFields = [...applied.out.matchAll(/^ {4}([\w.]+):/gm)].map((m) => m[1]);
    expect(new Set(changedFields)).toEqual(new Set(['key', 'managed_by', 'config.webhook_url']));
    expect(applied.out).toContain('    config.webhook_url: (secret set, not known to match: no fingerprint) -> (secret from ${OPS_SLACK_WEBHOOK_URL})\n');
    expect(applied.out.match(/adopt and update/g)).toHaveLength(6);
    const after = await monitors();
    expect(after.map((m) => [m.name, m.key, m.managed_by])).toEqual([
      ['Database', 'database', 'config'],
      ['Site', 'site', 'config'],
      ['Nightly backup', 'nightly-backup', 'config'],
    ]);
    expect((await api('get', `/monitors/${site.id}/alerts`)).body.data.channel_ids).toEqual([channel.id]);

    const again = await uptime(['apply', '-f', file], { OPS_SLACK_WEBHOOK_URL: SLACK_URL });
    expect([again.code, again.out]).toEqual([0, 'No changes: the server is as the files say.\n']);
    expect((await uptime(['plan', '-f', file], { OPS_SLACK_WEBHOOK_URL: SLACK_URL })).code).toBe(0);
  });
});

describe('status page sections (docs/status-pages.md, "Sections")', () => {
  it('export writes them with monitor keys, and auto_incidents; apply takes them back with no change; plan shows a section change field by field', async () => {
    const ids: Record<string, number> = {};
    for (const name of ['API', 'Database', 'Web']) ids[name] = (await api('post', '/monitors').send({ name, type: 'http', url: `https://${name.toLowerCase()}.example.test/` }).expect(201)).body.data.id;
    const sections = [
      { name: 'Front end', monitor_ids: [ids.Web] },
      { name: 'Back end', monitor_ids: [ids.Database, ids.API] },
    ];
    const slug = `sections-${ids.API}`;
    const page = (await api('post', '/status-pages').send({ slug, title: 'Sections', monitor_ids: [ids.API, ids.Database, ids.Web], sections, auto_incidents: true }).expect(201)).body.data;

    const exported = await uptime(['export', '--kind', 'monitors', '--kind', 'status_pages']);
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('    sections:\n      - name: Front end\n        monitors:\n          - web\n      - name: Back end\n        monitors:\n          - database\n          - api\n');
    expect(exported.out).toContain('    auto_incidents: true\n');
    const file = aFile(exported.out);
    const applied = await uptime(['apply', '-f', file]);
    expect(applied.code).toBe(0);
    // Adopted: only the key and managed_by change, the sections and auto_incidents are already so.
    expect(new Set([...applied.out.matchAll(/^ {4}([\w.]+):/gm)].map((m) => m[1]))).toEqual(new Set(['key', 'managed_by']));
    const again = await uptime(['apply', '-f', file]);
    expect([again.code, again.out]).toEqual([0, 'No changes: the server is as the files say.\n']);
    const stored = (await api('get', `/status-pages/${page.id}`).expect(200)).body.data;
    expect([stored.sections, stored.auto_incidents]).toEqual([sections, true]);

    // The first section renamed, the API moved from the second to the first.
    const edited = exported.out.replace('- name: Front end\n        monitors:\n          - web\n', '- name: Web\n        monitors:\n          - web\n          - api\n').replace('          - database\n          - api\n', '          - database\n');
    const changed = aFile(edited);
    const planned = await uptime(['plan', '-f', changed]);
    expect([planned.code, planned.out]).toEqual([
      2,
      [
        `~ status_pages.${slug}: update`,
        '    sections.0.name: "Front end" -> "Web"',
        '    sections.0.monitors: ["web"] -> ["web","api"]',
        '    sections.1.monitors: ["database","api"] -> ["database"]',
        'Plan: 0 to create, 1 to change, 0 to delete (without --prune nothing is deleted).\n',
      ].join('\n'),
    ]);
    expect((await uptime(['apply', '-f', changed])).code).toBe(0);
    expect((await api('get', `/status-pages/${page.id}`).expect(200)).body.data.sections).toEqual([
      { name: 'Web', monitor_ids: [ids.Web, ids.API] },
      { name: 'Back end', monitor_ids: [ids.Database] },
    ]);
    expect((await uptime(['plan', '-f', changed])).code).toBe(0);
  });
});

describe('plan and apply', () => {
  const file = (interval: number, extra = ''): string =>
    aFile(`monitors:
  - key: api
    name: API
    type: http
    url: https://api.example.test/health
    check_interval: ${interval}
${extra}`);

  it('exits 2 with changes, 0 without and 1 on an error; shows a change field by field; a second apply changes nothing', async () => {
    const first = file(120);
    const planned = await uptime(['plan', '-f', first]);
    expect([planned.code, planned.out]).toEqual([2, '+ monitors.api: create\nPlan: 1 to create, 0 to change, 0 to delete (without --prune nothing is deleted).\n']);
    expect((await uptime(['apply', '-f', first])).code).toBe(0);
    expect((await uptime(['plan', '-f', first])).code).toBe(0);
    const again = await uptime(['apply', '-f', first]);
    expect([again.code, again.out]).toEqual([0, 'No changes: the server is as the files say.\n']);

    const changed = await uptime(['plan', '-f', file(60)]);
    expect(changed.code).toBe(2);
    expect(changed.out).toContain('~ monitors.api: update\n    check_interval: 120 -> 60\n');

    const broken = await uptime(['plan', '-f', aFile('monitors:\n  - key: api\n    name: API\n    type: http\n    colour: red\n')]);
    expect(broken.code).toBe(1);
    expect((await uptime(['plan', '-f', first], { UPTIME_TOKEN: 'upt_not-a-token' })).code).toBe(1);
  });

  it('shows drift after an edit through the API, and apply puts it back', async () => {
    const f = file(120);
    expect((await uptime(['apply', '-f', f])).code).toBe(0);
    const [monitor] = await monitors();
    await api('patch', `/monitors/${monitor!.id}`).send({ check_interval: 600 }).expect(200);
    const drift = await uptime(['plan', '-f', f]);
    expect([drift.code, drift.out.split('\n').slice(0, 2)]).toEqual([2, ['~ monitors.api: update', '    check_interval: 600 -> 120']]);
    expect((await uptime(['apply', '-f', f])).code).toBe(0);
    expect((await monitors())[0]!.check_interval).toBe(120);
  });

  it('prunes only what a file made: never a resource made in the UI, and not without --yes', async () => {
    expect((await uptime(['apply', '-f', file(120, '  - key: old\n    name: Old\n    type: http\n    url: https://old.example.test/\n')])).code).toBe(0);
    await api('post', '/monitors').send({ name: 'Made by hand', type: 'http', url: 'https://hand.example.test/' }).expect(201);
    const smaller = file(120);

    const refused = await uptime(['apply', '-f', smaller, '--prune']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('apply would delete 1 resource: run it again with --yes');
    const declined = await uptime(['apply', '-f', smaller, '--prune'], {}, async () => false);
    expect(declined.code).toBe(1);
    // apply creates several at a time: API and Old may have either id.
    expect((await monitors()).map((m) => m.name).sort()).toEqual(['API', 'Made by hand', 'Old']);

    const planned = await uptime(['plan', '-f', smaller, '--prune']);
    expect([planned.code, planned.out]).toEqual([2, '- monitors.old: delete\nPlan: 0 to create, 0 to change, 1 to delete.\n']);
    expect((await uptime(['apply', '-f', smaller, '--prune', '--yes'])).code).toBe(0);
    expect((await monitors()).map((m) => [m.name, m.managed_by])).toEqual([
      ['API', 'config'],
      ['Made by hand', null],
    ]);
    expect((await uptime(['plan', '-f', smaller, '--prune'])).code).toBe(0);
  });

  it('stops at a failure part-way, says what was done and what was not, and a re-run finishes the job', async () => {
    const { auth: otherAuth } = await aCaller(h.ds);
    const theirs = await api('post', '/monitors', otherAuth).send({ name: 'Theirs', type: 'http', url: 'https://theirs.example.test/' }).expect(201);
    const page = await api('post', '/status-pages', otherAuth).send({ slug: 'taken-slug', title: 'Theirs', monitor_ids: [theirs.body.data.id] }).expect(201);
    const f = file(120, '  - key: web\n    name: Web\n    type: http\n    url: https://web.example.test/\nstatus_pages:\n  - key: public\n    slug: taken-slug\n    title: Ours\n    monitors: [api, web]\n');
    const failed = await uptime(['apply', '-f', f]);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('failed: create status_pages.public: 409 RESOURCE_EXISTS');
    expect(failed.out.match(/^done: .*$/gm)?.sort()).toEqual(['done: create monitors.api', 'done: create monitors.web']);
    expect((await monitors()).map((m) => m.name).sort()).toEqual(['API', 'Web']);

    await api('delete', `/status-pages/${page.body.data.id}`, otherAuth).expect(200);
    const rerun = await uptime(['apply', '-f', f]);
    expect([rerun.code, rerun.out.split('\n')[0]]).toEqual([0, '+ status_pages.public: create']);
    expect((await uptime(['plan', '-f', f])).code).toBe(0);
  });

  it('sends monitors through the bulk routes, all or none a request: a refused one leaves its whole batch as it was, named by its key', async () => {
    const cron = (expression: string): string => aFile(`monitors:
  - key: api
    name: API
    type: http
    url: https://api.example.test/health
  - key: backup
    name: Backup
    type: heartbeat
    heartbeat_cron: "${expression}"
`);
    const refused = await uptime(['apply', '-f', cron('61 * * * *')]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^Applied 0 changes; failed: create monitors\.api, create monitors\.backup: 400 VALIDATION_ERROR: .*\(monitors\.backup\.heartbeat_cron: /);
    expect(await monitors()).toEqual([]);
    const fixed = await uptime(['apply', '-f', cron('0 3 * * *')]);
    expect([fixed.code, fixed.out.match(/^done: .*$/gm)]).toEqual([0, ['done: create monitors.api', 'done: create monitors.backup']]);
    expect((await monitors()).map((m) => [m.key, m.managed_by])).toEqual([
      ['api', 'config'],
      ['backup', 'config'],
    ]);
  });
});

describe('secrets', () => {
  const channelFile = (): string => aFile('channels:\n  - key: ops-slack\n    name: Ops\n    type: slack\n    config:\n      webhook_url: ${OPS_SLACK_URL}\nmonitors:\n  - key: api\n    name: API\n    type: http\n    url: https://api.example.test/\n    channels: [ops-slack]\n');

  it('come from the environment: a missing one is an error naming it, and they are never printed or exported', async () => {
    const f = channelFile();
    const missing = await uptime(['plan', '-f', f]);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`${f}:6: channels.ops-slack.config.webhook_url: environment variable OPS_SLACK_URL is not set\n`);

    const applied = await uptime(['apply', '-f', f], { OPS_SLACK_URL: SLACK_URL });
    expect(applied.code).toBe(0);
    expect(applied.out + applied.err).not.toContain('very-secret-path');
    const [channel] = (await api('get', '/channels')).body.data;
    expect(channel.config).toEqual({ webhook_url_set: true });
    expect((await api('get', `/monitors/${(await monitors())[0]!.id}/alerts`)).body.data.channel_ids).toEqual([channel.id]);

    const exported = await uptime(['export', '--kind', 'channels']);
    expect(exported.out).not.toContain('very-secret-path');
    expect(exported.out).toContain('webhook_url: ${OPS_SLACK_WEBHOOK_URL}');
    expect((await uptime(['plan', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(0);
  });
});

describe('secret rotation', () => {
  const ROTATED = 'https://hooks.slack.example/services/T000/B000/rotated-path-9d2f';
  const file = (): string => aFile('channels:\n  - key: ops-slack\n    name: Ops\n    type: slack\n    config:\n      webhook_url: ${OPS_SLACK_URL}\n');
  const storedSecret = async (): Promise<string> => {
    const [row] = (await h.ds.query('SELECT sealed_secrets FROM channels')) as { sealed_secrets: string }[];
    return (JSON.parse(h.keyring.open(row!.sealed_secrets)) as { webhook_url: string }).webhook_url;
  };

  it('plan sees a secret changed in the environment by its fingerprint, without showing either value; apply sends it; an unchanged one is no change', async () => {
    const f = file();
    expect((await uptime(['apply', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(0);
    const [channel] = (await api('get', '/channels')).body.data;
    expect(channel.config).toEqual({ webhook_url_set: true });
    expect(Object.keys(channel.config_fingerprints)).toEqual(['webhook_url']);
    expect(channel.config_fingerprints.webhook_url).toMatch(/^scrypt1:[\w-]{22}:[\w-]{43}$/);
    expect(JSON.stringify(channel)).not.toContain('very-secret-path');
    expect((await uptime(['plan', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(0);

    const rotated = await uptime(['plan', '-f', f], { OPS_SLACK_URL: ROTATED });
    expect([rotated.code, rotated.out]).toEqual([
      2,
      '~ channels.ops-slack: update\n    config.webhook_url: (secret changed) -> (secret from ${OPS_SLACK_URL})\nPlan: 0 to create, 1 to change, 0 to delete (without --prune nothing is deleted).\n',
    ]);
    const applied = await uptime(['apply', '-f', f], { OPS_SLACK_URL: ROTATED });
    expect(applied.code).toBe(0);
    expect(applied.out + applied.err).not.toMatch(/very-secret-path|rotated-path/);
    expect(await storedSecret()).toBe(ROTATED);
    expect((await uptime(['plan', '-f', f], { OPS_SLACK_URL: ROTATED })).code).toBe(0);
    expect((await uptime(['plan', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(2);
  });

  it('a secret changed through the API loses its fingerprint: plan shows it, and apply puts the file\'s back', async () => {
    const f = file();
    expect((await uptime(['apply', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(0);
    const [channel] = (await api('get', '/channels')).body.data;
    // A change of another field keeps it; a change of the secret drops it.
    expect((await api('patch', `/channels/${channel.id}`).send({ name: 'Ops' }).expect(200)).body.data.config_fingerprints).toEqual(channel.config_fingerprints);
    expect((await api('patch', `/channels/${channel.id}`).send({ config: { webhook_url: ROTATED } }).expect(200)).body.data.config_fingerprints).toEqual({});
    const drift = await uptime(['plan', '-f', f], { OPS_SLACK_URL: SLACK_URL });
    expect([drift.code, drift.out.split('\n')[1]]).toEqual([2, '    config.webhook_url: (secret set, not known to match: no fingerprint) -> (secret from ${OPS_SLACK_URL})']);
    expect((await uptime(['apply', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(0);
    expect(await storedSecret()).toBe(SLACK_URL);
    expect((await uptime(['plan', '-f', f], { OPS_SLACK_URL: SLACK_URL })).code).toBe(0);
  });
});

/** Two monitors and the start of a page: what the section rules are tried on (each line counts: the tests name lines). */
const API_AND_WEB = `monitors:
  - key: api
    name: API
    type: http
    url: https://api.example.test/
  - key: web
    name: Web
    type: http
    url: https://web.example.test/
status_pages:
  - key: public
    slug: acme
    title: Acme
`;

describe('validate', () => {
  it('points each problem at its file, line and key', async () => {
    const f = aFile(`# yaml-language-server: $schema=./config.schema.json
monitors:
  - key: api
    name: API
    type: http
    url: https://api.example.test/
    check_interval: 0
    colour: red
  - name: No key
    type: http
    url: https://nokey.example.test/
status_pages:
  - key: public
    slug: acme
    title: Acme
    monitors: [api, missing]
`);
    const offline = await uptime(['validate', '--offline', '-f', f], { UPTIME_URL: '', UPTIME_TOKEN: '' });
    expect(offline.code).toBe(1);
    expect(offline.err.trim().split('\n')).toEqual([
      `${f}:3: monitors.api: unknown field "colour"`,
      `${f}:7: monitors.api.check_interval: must be >= 1`,
      `${f}:9: monitors[1].key: "key" is required`,
      `${f}:16: status_pages.public.monitors: no monitors has the key "missing" in the files`,
    ]);
    const online = await uptime(['validate', '-f', f]);
    expect(online.err).toContain(`${f}:16: status_pages.public.monitors: no monitors has the key "missing" in the files or on the server`);
    const sections = aFile(`${API_AND_WEB}    monitors: [api]
    sections:
      - name: Back end
        monitors: [api, missing]
      - name: Front end
        monitors: [web]
`);
    const sectionProblems = await uptime(['validate', '-f', sections]);
    expect(sectionProblems.code).toBe(1);
    expect(sectionProblems.err.trim().split('\n')).toEqual([
      `${sections}:17: status_pages.public.sections.0.monitors: no monitors has the key "missing" in the files or on the server`,
      `${sections}:19: status_pages.public.sections.1.monitors: monitor "web" is not among the page's monitors`,
    ]);
    const syntax = await uptime(['validate', '--offline', '-f', aFile('monitors:\n  - key: a\n   name: x\n')]);
    expect(syntax.code).toBe(1);
    expect(syntax.err).toMatch(/uptime-\d+\.yaml:3: \(file\): /);
  });

  it('reports a section name repeated within a page and a monitor placed twice, at their lines, online and offline', async () => {
    const f = aFile(`${API_AND_WEB}    monitors: [api, web]
    sections:
      - name: Back end
        monitors: [api]
      - name: " back END "
        monitors:
          - web
          - api
      - name: Front end
        monitors: [web, web]
  - key: other
    slug: other
    title: Other
    monitors: [api]
    sections:
      - name: Back end
        monitors: [api]
`);
    const expected = [
      `${f}:18: status_pages.public.sections.1.name: section 0 already has the name "back END" (names are compared trimmed, letter case aside)`,
      `${f}:21: status_pages.public.sections.1.monitors: monitor "api" is already in section 0: a monitor is in at most one section`,
      `${f}:23: status_pages.public.sections.2.monitors: must NOT have duplicate items (items ## 1 and 0 are identical)`,
      `${f}:23: status_pages.public.sections.2.monitors: monitor "web" is already in section 1: a monitor is in at most one section`,
    ];
    for (const argv of [['validate', '-f', f], ['validate', '--offline', '-f', f]]) {
      const res = await uptime(argv);
      expect([res.code, res.err.trim().split('\n')]).toEqual([1, expected]);
    }
    const planned = await uptime(['plan', '-f', f]);
    expect([planned.code, planned.err.trim().split('\n')]).toEqual([1, expected]);
  });
});

describe('the example of docs/config-as-code.md', () => {
  it('validates, applies, and then plans no change', async () => {
    const doc = readFileSync(path.join(__dirname, '../../../docs/config-as-code.md'), 'utf8');
    const example = /```yaml\n(# yaml-language-server[\s\S]*?)```/.exec(doc)![1]!;
    const f = aFile(example);
    const env = { OPS_SLACK_WEBHOOK_URL: SLACK_URL };
    expect((await uptime(['validate', '-f', f], env)).code).toBe(0);
    const applied = await uptime(['apply', '-f', f], env);
    expect([applied.code, applied.err]).toEqual([0, '']);
    // Created 8 at a time: in any order.
    expect((await monitors()).map((m) => m.key).sort()).toEqual(['api', 'checkout', 'database', 'nightly-backup']);
    expect((await uptime(['plan', '-f', f], env)).code).toBe(0);
  });
});
