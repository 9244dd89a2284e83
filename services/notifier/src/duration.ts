const UNITS: [suffix: string, seconds: number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/** A duration in seconds for people: 192 → "3m 12s", 3600 → "1h", 0 → "0s". Zero units are left out. */
export function formatDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.round(totalSeconds));
  const parts: string[] = [];
  for (const [suffix, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count}${suffix}`);
  }
  return parts.length > 0 ? parts.join(' ') : '0s';
}

const SPOKEN_UNITS: [singular: string, seconds: number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/**
 * A duration in words, to the minute, for a subject line: 900 → "15 minutes", 7500 → "2 hours 5
 * minutes", 90000 → "1 day 1 hour". Seconds are dropped; under a minute reads "less than a minute".
 */
export function formatSpokenDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.floor(totalSeconds / 60)) * 60;
  const parts: string[] = [];
  for (const [unit, size] of SPOKEN_UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : 'less than a minute';
}
