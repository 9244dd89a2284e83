import { formatDuration, formatSpokenDuration } from './duration';

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [45, '45s'],
    [192, '3m 12s'],
    [3600, '1h'],
    [3725, '1h 2m 5s'],
    [90_061, '1d 1h 1m 1s'],
    [86_400 + 30, '1d 30s'],
  ])('formats %i seconds as "%s"', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });

  it('rounds fractions and never shows a negative duration', () => {
    expect(formatDuration(59.6)).toBe('1m');
    expect(formatDuration(-5)).toBe('0s');
  });
});

describe('formatSpokenDuration', () => {
  it.each([
    [900, '15 minutes'],
    [60, '1 minute'],
    [7500, '2 hours 5 minutes'],
    [3600, '1 hour'],
    [90_000, '1 day 1 hour'],
    [2 * 86_400 + 120, '2 days 2 minutes'],
    [959, '15 minutes'],
  ])('says %i seconds as "%s"', (seconds, expected) => {
    expect(formatSpokenDuration(seconds)).toBe(expected);
  });

  it('says less than a minute below one, and never a negative duration', () => {
    expect(formatSpokenDuration(59)).toBe('less than a minute');
    expect(formatSpokenDuration(-5)).toBe('less than a minute');
  });
});
