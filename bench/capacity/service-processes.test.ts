import { REQUEUED_AT_STOP_MESSAGE } from '../../services/check-worker/src/in-flight-checks';
import { requeuedIn } from './service-processes';

/** A JSON log line as the services write them (pino: one object per line, the message in `msg`). */
function logLine(level: number, fields: Record<string, unknown>, msg: string): string {
  return JSON.stringify({ level, time: 1_700_000_000_000, pid: 1, service: 'check-worker', ...fields, msg });
}

describe('requeuedIn', () => {
  it("counts the jobs of a check-worker's forced-stop line", () => {
    const requeued = [
      { job_id: 'repeat:m1:1700000000000', monitor_id: 1 },
      { job_id: 'repeat:m2:1700000000000', monitor_id: 2 },
      { job_id: 'now-3-1700000000000', monitor_id: 3 },
    ];
    expect(requeuedIn(logLine(40, { requeued }, REQUEUED_AT_STOP_MESSAGE))).toBe(3);
  });

  it('counts nothing in other lines, or in a line that only quotes the message', () => {
    expect(requeuedIn(logLine(30, { in_flight: [{ job_id: 'x' }] }, 'stopping: finishing checks in flight'))).toBe(0);
    expect(requeuedIn(logLine(30, { note: REQUEUED_AT_STOP_MESSAGE, requeued: [1] }, 'something else'))).toBe(0);
    expect(requeuedIn(`not json ${REQUEUED_AT_STOP_MESSAGE}`)).toBe(0);
  });
});
