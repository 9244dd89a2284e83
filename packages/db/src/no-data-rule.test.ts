import { uncheckedSpanBefore, type PreviousCheck } from './no-data-rule';

const last = new Date('2026-11-22T10:00:00.000Z');
const at = (seconds: number): Date => new Date(last.getTime() + seconds * 1000);
const online: PreviousCheck = { status: 'online', lastCheck: last, checkIntervalSeconds: 30, configChangedAt: new Date('2026-11-01T00:00:00.000Z') };

describe('uncheckedSpanBefore', () => {
  it('opens nothing within two intervals, late checks included', () => {
    expect(uncheckedSpanBefore(online, at(30))).toBeNull();
    expect(uncheckedSpanBefore(online, at(60))).toBeNull();
  });

  it('spans from when the next check was due to the check that resumed, past two intervals', () => {
    expect(uncheckedSpanBefore(online, at(61))).toEqual({ startedAt: at(30), endedAt: at(61) });
    expect(uncheckedSpanBefore({ ...online, status: 'offline' }, at(600))).toEqual({ startedAt: at(30), endedAt: at(600) });
  });

  it('opens nothing for a first check, a resumed monitor, or one changed since its last check', () => {
    expect(uncheckedSpanBefore({ ...online, lastCheck: null }, at(600))).toBeNull();
    expect(uncheckedSpanBefore({ ...online, status: 'pending' }, at(600))).toBeNull();
    expect(uncheckedSpanBefore({ ...online, status: 'paused' }, at(600))).toBeNull();
    expect(uncheckedSpanBefore({ ...online, configChangedAt: at(5) }, at(600))).toBeNull();
  });
});
