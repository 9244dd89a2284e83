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
