import type { Schema } from '@uptime/client';
import {
  emptyMonitorForm,
  fieldOfErrorKey,
  formToMonitorBody,
  monitorToForm,
  type MonitorFormValues,
} from '../src/pages/monitor-form/monitor-form-values';

const filled = (changes: Partial<MonitorFormValues> = {}): MonitorFormValues => ({
  ...emptyMonitorForm(),
  name: ' Checkout ',
  url: ' https://shop.example.com/health ',
  ...changes,
});

const MONITOR: Schema<'Monitor'> = {
  id: 7,
  name: 'Shop',
  url: 'https://shop.example.com/',
  type: 'http',
  method: 'POST',
  headers: { Accept: 'application/json', 'X-Key': 'a:b' },
  body: '{"ping":1}',
  expected_status: [200, 204],
  timeout: 10,
  check_interval: 60,
  retry_count: 2,
  follow_redirects: false,
  verify_ssl: false,
  expected_content: 'ok',
  excluded_content: null,
  json_path: '$.status',
  expected_json_value: 'up',
  tcp_send: null,
  dns_record_type: null,
  dns_resolver: null,
  dns_protocol: null,
  expected_dns_values: null,
  ping_count: null,
  locations: ['eu'],
  tags: ['prod', 'shop'],
  status: 'online',
  uptime_24h: 100,
  uptime_7d: 100,
  uptime_30d: 100,
  response_time: 120,
  last_check: null,
  last_success: null,
  last_failure: null,
  paused_at: null,
  pause_reason: null,
  status_reason: null,
  response_time_threshold: 1200,
  recovery_threshold: 2,
  depends_on: [3],
  heartbeat_period: null,
  heartbeat_cron: null,
  heartbeat_timezone: null,
  heartbeat_grace: null,
  heartbeat_url: null,
  certificate_expires_at: null,
  in_maintenance: false,
  created_at: '2026-11-22T10:00:00.000Z',
  key: 'shop',
  managed_by: 'config',
  updated_at: '2026-11-22T10:00:00.000Z',
};

describe('the monitor form mapped to the API body', () => {
  it("sends a new monitor with the user's defaults and leaves empty optional texts out", () => {
    const form = {
      ...emptyMonitorForm({ default_check_interval: 120, default_timeout: 15, default_locations: ['eu', 'us'] }),
      name: 'Site',
      url: 'https://example.com',
    };
    expect(formToMonitorBody(form, 'create')).toEqual({
      errors: {},
      body: {
        name: 'Site',
        url: 'https://example.com',
        type: 'http',
        method: 'GET',
        headers: {},
        expected_status: [],
        check_interval: 120,
        timeout: 15,
        retry_count: 0,
        recovery_threshold: 1,
        follow_redirects: true,
        verify_ssl: true,
        tags: [],
        locations: ['eu', 'us'],
      },
    });
  });

  it('maps every HTTP option: headers by line, lists by comma, numbers as numbers', () => {
    const { body, errors } = formToMonitorBody(
      filled({
        method: 'PUT',
        headers: 'Accept: application/json\n\n  X-Token :  a:b:c  \n',
        body: '{"x":1}',
        expected_status: '200, 201,,302',
        expected_content: 'healthy',
        excluded_content: 'error',
        json_path: '$.ok',
        expected_json_value: 'true',
        follow_redirects: false,
        verify_ssl: false,
        check_interval: ' 30 ',
        timeout: '4',
        retry_count: '3',
        tags: 'prod, eu ,',
        locations: 'fra',
      }),
      'create',
    );
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: 'Checkout',
      url: 'https://shop.example.com/health',
      type: 'http',
      method: 'PUT',
      headers: { Accept: 'application/json', 'X-Token': 'a:b:c' },
      body: '{"x":1}',
      expected_status: [200, 201, 302],
      expected_content: 'healthy',
      excluded_content: 'error',
      json_path: '$.ok',
      expected_json_value: 'true',
      follow_redirects: false,
      verify_ssl: false,
      check_interval: 30,
      // Out of range, but the API judges ranges: its message shows next to the field.
      timeout: 4,
      retry_count: 3,
      recovery_threshold: 1,
      tags: ['prod', 'eu'],
      locations: ['fra'],
    });
  });

  it('clears emptied optional texts with null on update', () => {
    const { body } = formToMonitorBody(
      { ...monitorToForm(MONITOR), body: '', expected_content: ' ', json_path: '', expected_json_value: '' },
      'update',
    );
    expect(body).toMatchObject({ body: null, expected_content: null, excluded_content: null, json_path: null, expected_json_value: null });
  });

  it('round-trips an existing monitor through the form unchanged', () => {
    const { body, errors } = formToMonitorBody(monitorToForm(MONITOR), 'update');
    expect(errors).toEqual({});
    const {
      id: _id,
      status: _s,
      uptime_24h: _a,
      uptime_7d: _b,
      uptime_30d: _c,
      response_time: _r,
      last_check: _l,
      last_success: _ls,
      last_failure: _lf,
      paused_at: _p,
      pause_reason: _pr,
      status_reason: _sr,
      certificate_expires_at: _ce,
      in_maintenance: _im,
      created_at: _ca,
      updated_at: _ua,
      // Another type's fields: an http form has none to send.
      tcp_send: _ts,
      dns_record_type: _dt,
      dns_resolver: _dr,
      dns_protocol: _dp,
      expected_dns_values: _dv,
      ping_count: _pc,
      heartbeat_period: _hp,
      heartbeat_cron: _hc,
      heartbeat_timezone: _htz,
      heartbeat_grace: _hg,
      heartbeat_url: _hu,
      // The form leaves a file's key and managed_by as they are (docs/config-as-code.md).
      key: _k,
      managed_by: _mb,
      ...fields
    } = MONITOR;
    expect(body).toEqual(fields);
  });

  it('refuses what only the form can tell is wrong, by field, and sends nothing for it', () => {
    const { body, errors } = formToMonitorBody(
      filled({ headers: 'Accept application/json', expected_status: '200, abc', timeout: '2.5', check_interval: '' }),
      'create',
    );
    expect(errors).toEqual({
      headers: ['line 1: write "Name: value"'],
      expected_status: ['"abc" is not a status code'],
      timeout: ['timeout must be a whole number'],
    });
    expect(body).not.toHaveProperty('timeout');
    expect(body).not.toHaveProperty('check_interval');
  });

  it("places the API's error keys on their fields", () => {
    expect(fieldOfErrorKey('timeout')).toBe('timeout');
    expect(fieldOfErrorKey('headers.X-Key')).toBe('headers');
    expect(fieldOfErrorKey('tags[2]')).toBe('tags');
  });
});

describe('the monitor form of a tcp monitor', () => {
  it('sends the tcp fields and none of the http ones, and reads a tcp monitor back', () => {
    const values = { ...emptyMonitorForm(), name: 'Postgres', type: 'tcp' as const, url: 'tcp://db.example.com:5432', tcp_send: 'PING', expected_content: 'PONG' };
    const { body, errors } = formToMonitorBody(values, 'create');
    expect(errors).toEqual({});
    expect(body).toMatchObject({ type: 'tcp', url: 'tcp://db.example.com:5432', tcp_send: 'PING', expected_content: 'PONG', verify_ssl: true });
    for (const field of ['method', 'headers', 'body', 'expected_status', 'follow_redirects', 'json_path', 'expected_json_value']) expect(body).not.toHaveProperty(field);
    const read = monitorToForm({ ...MONITOR, type: 'tcp', url: 'tls://mail.example.com:993', tcp_send: null, method: null, headers: null, expected_status: null, follow_redirects: null });
    expect(read).toMatchObject({ type: 'tcp', url: 'tls://mail.example.com:993', tcp_send: '', method: 'GET' });
    expect(formToMonitorBody(read, 'update').body).toMatchObject({ type: 'tcp', tcp_send: null });
  });
});

describe('the monitor form of a dns monitor', () => {
  it('sends the dns fields, the expected values one per line, and none of the http or tcp ones', () => {
    const values = {
      ...emptyMonitorForm(),
      name: 'Mail',
      type: 'dns' as const,
      url: 'dns://example.com',
      dns_record_type: 'MX',
      dns_resolver: ' 1.1.1.1 ',
      dns_protocol: 'tcp',
      expected_dns_values: '10 mx1.example.com\n\n  20 mx2.example.com  \n',
      expected_content: 'left from http',
    };
    const { body, errors } = formToMonitorBody(values, 'create');
    expect(errors).toEqual({});
    expect(body).toMatchObject({ type: 'dns', url: 'dns://example.com', dns_record_type: 'MX', dns_resolver: '1.1.1.1', dns_protocol: 'tcp', expected_dns_values: ['10 mx1.example.com', '20 mx2.example.com'] });
    for (const field of ['method', 'headers', 'body', 'expected_status', 'follow_redirects', 'json_path', 'expected_json_value', 'verify_ssl', 'expected_content', 'excluded_content', 'tcp_send']) {
      expect(body).not.toHaveProperty(field);
    }
  });

  it('reads a dns monitor back, and clears its resolver on update when emptied', () => {
    const read = monitorToForm({
      ...MONITOR,
      type: 'dns',
      url: 'dns://example.com',
      method: null,
      headers: null,
      expected_status: null,
      follow_redirects: null,
      verify_ssl: null,
      dns_record_type: 'AAAA',
      dns_resolver: '[2606:4700:4700::1111]:53',
      dns_protocol: 'udp',
      expected_dns_values: ['2001:db8::1', '2001:db8::2'],
    });
    expect(read).toMatchObject({ type: 'dns', dns_record_type: 'AAAA', dns_resolver: '[2606:4700:4700::1111]:53', dns_protocol: 'udp', expected_dns_values: '2001:db8::1\n2001:db8::2' });
    expect(formToMonitorBody({ ...read, dns_resolver: '' }, 'update').body).toMatchObject({ type: 'dns', dns_resolver: null, expected_dns_values: ['2001:db8::1', '2001:db8::2'] });
    // An http monitor's form starts a switch to dns at the declared defaults.
    expect(monitorToForm(MONITOR)).toMatchObject({ dns_record_type: 'A', dns_resolver: '', dns_protocol: 'udp', expected_dns_values: '' });
  });
});

describe('the monitor form of a ping monitor', () => {
  it('sends ping_count and none of the http or tcp fields, and reads a ping monitor back', () => {
    const values = { ...emptyMonitorForm(), name: 'Router', type: 'ping' as const, url: 'ping://router.example.com', expected_content: 'ignored' };
    expect(values.ping_count).toBe('3');
    const { body, errors } = formToMonitorBody({ ...values, ping_count: '5' }, 'create');
    expect(errors).toEqual({});
    expect(body).toMatchObject({ type: 'ping', url: 'ping://router.example.com', ping_count: 5 });
    for (const field of ['method', 'headers', 'body', 'expected_status', 'follow_redirects', 'json_path', 'expected_json_value', 'verify_ssl', 'expected_content', 'excluded_content', 'tcp_send']) {
      expect(body).not.toHaveProperty(field);
    }
    expect(formToMonitorBody({ ...values, ping_count: 'two' }, 'create').errors).toEqual({ ping_count: ['ping_count must be a whole number'] });
    const read = monitorToForm({ ...MONITOR, type: 'ping', url: 'ping://[::1]', ping_count: 7, verify_ssl: null, method: null, headers: null, expected_status: null, follow_redirects: null });
    expect(read).toMatchObject({ type: 'ping', url: 'ping://[::1]', ping_count: '7' });
    expect(formToMonitorBody(read, 'update').body).toMatchObject({ type: 'ping', ping_count: 7 });
  });

  it('sends no ping_count for the other types', () => {
    expect(formToMonitorBody({ ...emptyMonitorForm(), name: 'Site', url: 'https://example.com/' }, 'create').body).not.toHaveProperty('ping_count');
  });
});
