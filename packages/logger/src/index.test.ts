import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { defaultLogFormat, prettyLine, type LogFormat } from './index';

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

describe('createLogger writes', () => {
  /** What a process logging one entry with `format` prints on stdout (a pipe: no colours). */
  function printed(format: LogFormat | undefined): string {
    const code = `require(${JSON.stringify(path.join(__dirname, 'index.ts'))})
      .createLogger({ level: 'info', service: 'uptime', format: ${JSON.stringify(format)} })
      .child({ component: 'api' })
      .info({ url: 'http://127.0.0.1:3000' }, 'api listening')`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    return run.stdout;
  }

  it('one readable line per entry with LOG_FORMAT=pretty, no JSON', () => {
    expect(printed('pretty')).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: api: api listening url=http:\/\/127\.0\.0\.1:3000\n$/);
  });

  it('JSON lines with LOG_FORMAT=json, and when stdout is no terminal and LOG_FORMAT is unset', () => {
    for (const format of ['json', undefined] as const) {
      expect(JSON.parse(printed(format))).toMatchObject({ level: 30, service: 'uptime', component: 'api', msg: 'api listening', url: 'http://127.0.0.1:3000' });
    }
  });
});
