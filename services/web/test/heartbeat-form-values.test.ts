import { emptyHeartbeatForm, heartbeatFormToBody, heartbeatSnippets, previewTimes } from '../src/pages/heartbeat/heartbeat-form-values';

describe('heartbeat form values', () => {
  it('makes a create body with a period, and a cron with its zone', () => {
    const form = { ...emptyHeartbeatForm(), name: ' Backup ', period: '600', grace: '120' };
    expect(heartbeatFormToBody(form, 'create')).toEqual({ body: { name: 'Backup', type: 'heartbeat', heartbeat_period: 600, heartbeat_grace: 120 }, errors: {} });
    const cron = { ...form, schedule: 'cron' as const, cron: '30 2 * * *', timezone: 'Europe/Berlin' };
    expect(heartbeatFormToBody(cron, 'update').body).toEqual({ name: 'Backup', heartbeat_cron: '30 2 * * *', heartbeat_timezone: 'Europe/Berlin', heartbeat_period: null, heartbeat_grace: 120 });
  });

  it('names a period or grace that is not a whole number', () => {
    expect(Object.keys(heartbeatFormToBody({ ...emptyHeartbeatForm(), period: '1.5', grace: 'x' }, 'create').errors).sort()).toEqual(['heartbeat_grace', 'heartbeat_period']);
  });

  it('previews the next five expected times in the zone, or says what is missing', () => {
    const now = new Date('2026-03-28T12:00:00Z');
    const cron = { ...emptyHeartbeatForm(), schedule: 'cron' as const, cron: '30 2 * * *', timezone: 'Europe/Berlin' };
    const preview = previewTimes(cron, now);
    expect('times' in preview && preview.times.map((d) => d.toISOString())).toEqual([
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
      '2026-04-01T00:30:00.000Z',
      '2026-04-02T00:30:00.000Z',
    ]);
    expect(previewTimes({ ...cron, cron: '* * *' }, now)).toEqual({ problem: expect.stringMatching(/5 fields/) });
    expect(previewTimes({ ...cron, timezone: 'Nowhere/Else' }, now)).toEqual({ problem: expect.stringMatching(/IANA/) });
    expect(previewTimes({ ...emptyHeartbeatForm(), period: '10' }, now)).toEqual({ problem: expect.stringMatching(/at least 30/) });
  });

  it('gives a crontab line and a wrapper reporting the start and the exit status', () => {
    const s = heartbeatSnippets('https://up.example.com/ping/abc');
    expect(s.crontab).toBe('*/5 * * * * /path/to/job.sh && curl -fsS -m 10 --retry 5 https://up.example.com/ping/abc');
    expect(s.wrapper).toBe('curl -fsS -m 10 --retry 5 https://up.example.com/ping/abc/start; /path/to/job.sh; curl -fsS -m 10 --retry 5 https://up.example.com/ping/abc/$?');
  });
});
