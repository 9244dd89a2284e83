import { latenessMessage } from '../src/pages/dashboard/lateness';

describe("the dashboard's lateness alert", () => {
  it('says nothing while checks keep their schedule', () => {
    expect(latenessMessage({ per_second: 3, lag_p99_seconds: 0.2, late: false })).toBeNull();
  });

  it('says no check-worker runs when none reports', () => {
    expect(latenessMessage({ per_second: 0, lag_p99_seconds: null, late: true })).toBe('No check-worker is running');
  });

  it('says the lag to a tenth under 10 s (late on a short interval), in whole seconds above', () => {
    expect(latenessMessage({ per_second: 3.7, lag_p99_seconds: 0.43, late: true })).toBe(
      'Checks are running 0.4 s late: add a check-worker',
    );
    expect(latenessMessage({ per_second: 900, lag_p99_seconds: 23.6, late: true })).toBe(
      'Checks are running 24 s late: add a check-worker',
    );
  });
});
