/**
 * Wall-clock times in a named time zone, as the maintenance form shows and takes them: a window
 * starts at a local time of day in its own zone (docs/alert-rules.md), which need not be the
 * browser's or the user's preference.
 */

const parts = (instant: number, timeZone: string): Record<string, number> => {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  return Object.fromEntries(f.formatToParts(new Date(instant)).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
};

/** Minutes-precise wall time at `instant` in `timeZone`, as milliseconds of a UTC calendar. */
const wallAt = (instant: number, timeZone: string): number => {
  const p = parts(instant, timeZone);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
};

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-28T02:00": what a `datetime-local` field shows for `iso` in `timeZone`. */
export function localInputValue(iso: string, timeZone: string): string {
  const d = new Date(wallAt(Date.parse(iso), timeZone));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * The instant (ISO, UTC) at which `timeZone` reads the `datetime-local` value `local`, or null
 * when it is not one. The zone's offset is taken at the guessed instant and checked once more,
 * which settles it except inside a daylight-saving gap, where the later offset applies.
 */
export function instantOfLocal(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let instant = wall - (wallAt(wall, timeZone) - wall);
  instant = wall - (wallAt(instant, timeZone) - instant);
  return new Date(instant).toISOString();
}
