import { defaultLogFormat, prettyLine } from './index';

describe('defaultLogFormat', () => {
  it('is pretty for a person at a terminal and JSON lines for everything else', () => {
    expect(defaultLogFormat({ isTTY: true })).toBe('pretty');
    expect(defaultLogFormat({ isTTY: false })).toBe('json');
    expect(defaultLogFormat({})).toBe('json');
  });
});

describe('prettyLine (LOG_FORMAT=pretty)', () => {
  it('puts the component before the message and the other fields after it as key=value', () => {
    const line = prettyLine({ level: 30, time: 1, pid: 1, hostname: 'h', service: 'uptime', component: 'api', msg: 'api listening', url: 'http://127.0.0.1:3000', tries: 2 });
    expect(line).toBe('api: api listening url=http://127.0.0.1:3000 tries=2');
  });

  it('shows an error by its message and a nested value compactly', () => {
    expect(prettyLine({ msg: 'failed', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' }, ids: [1, 2] })).toBe('failed err=boom ids=[1,2]');
  });

  it('reads a request line as the request: method, path, status, time', () => {
    const line = prettyLine({
      component: 'api',
      msg: 'request completed',
      request_id: 'r-1',
      req: { id: 'r-1', method: 'GET', url: '/api/v1/monitors', headers: { host: 'x' } },
      res: { statusCode: 401, headers: {} },
      responseTime: 3,
    });
    expect(line).toBe('api: request completed GET /api/v1/monitors 401 3ms request_id=r-1');
  });
});
