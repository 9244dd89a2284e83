import { formatDuration } from './duration';

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
