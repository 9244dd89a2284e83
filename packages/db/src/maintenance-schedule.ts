import { DAY_MS } from './durations';

/**
 * When maintenance windows are active (docs/alert-rules.md). Pure: the API lists upcoming
 * occurrences with it and the check-worker flags checks with it, so both agree.
 *
 * A window's occurrences start at the local wall-clock time of `startsAt` in its timezone: once
 * (`none`), every day (`daily`), or on the given ISO weekdays (`weekly`; none given: the weekday
 * of `startsAt`), never before `startsAt`. Local times are turned into instants with the zone's
 * rules of that day, so a 02:00 window stays at 02:00 across daylight-saving changes; a local time
 * repeated by a change counts its first pass, one skipped starts just after the gap.
 */
export const MAINTENANCE_REPEATS = ['none', 'daily', 'weekly'] as const;
export type MaintenanceRepeat = (typeof MAINTENANCE_REPEATS)[number];

export interface MaintenanceSchedule {
  startsAt: Date;
  durationMinutes: number;
  repeat: MaintenanceRepeat;
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  weekdays: readonly number[];
  timezone: string;
}

export interface Occurrence {
  startsAt: Date;
  endsAt: Date;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** The wall-clock time at `instant` in `timezone`, as milliseconds of a UTC-based calendar. */
function wallClock(instant: number, timezone: string): number {
  const parts = Object.fromEntries(formatter(timezone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall + (instant % 1000 + 1000) % 1000;
}

/** The instant at which `timezone` reads the wall-clock time `wall`. */
function instantOf(wall: number, timezone: string): number {
  const offsetAt = (instant: number): number => wallClock(instant, timezone) - instant;
  // Zones change offset at most once a day: the offsets a day before and after are the candidates.
  const before = wall - offsetAt(wall - DAY_MS);
  const after = wall - offsetAt(wall + DAY_MS);
  const valid = [before, after].filter((t) => wallClock(t, timezone) === wall);
  // A repeated local time (fall back) is taken the first time; a skipped one (spring forward)
  // with the offset before the change, which lands just after the gap.
  return valid.length > 0 ? Math.min(...valid) : before;
}

/** The occurrences whose start is in [fromDay, toDay] (local days, as UTC-calendar midnights). */
function occurrencesOnDays(w: MaintenanceSchedule, fromDay: number, toDay: number): Occurrence[] {
  const startWall = wallClock(w.startsAt.getTime(), w.timezone);
  const timeOfDay = ((startWall % DAY_MS) + DAY_MS) % DAY_MS;
  const firstDay = startWall - timeOfDay;
  const weekdays = w.weekdays.length > 0 ? w.weekdays : [isoWeekday(firstDay)];
  const out: Occurrence[] = [];
  for (let day = Math.max(fromDay, firstDay); day <= toDay; day += DAY_MS) {
    if (w.repeat === 'none' && day !== firstDay) break;
    if (w.repeat === 'weekly' && !weekdays.includes(isoWeekday(day))) continue;
    const start = day === firstDay ? w.startsAt.getTime() : instantOf(day + timeOfDay, w.timezone);
    out.push({ startsAt: new Date(start), endsAt: new Date(start + w.durationMinutes * 60_000) });
  }
  return out;
}

const isoWeekday = (day: number): number => ((new Date(day).getUTCDay() + 6) % 7) + 1;
const localDay = (instant: number, timezone: string): number => {
  const wall = wallClock(instant, timezone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
};

/** The occurrence of the window active at `at` (start ≤ at < end), if any; the latest-ending when several overlap. */
export function activeOccurrence(w: MaintenanceSchedule, at: Date): Occurrence | null {
  const t = at.getTime();
  // An occurrence active at t started at most its duration earlier; a day either side covers offsets.
  const from = localDay(t - w.durationMinutes * 60_000, w.timezone) - DAY_MS;
  const to = localDay(t, w.timezone) + DAY_MS;
  const active = occurrencesOnDays(w, from, to).filter((o) => o.startsAt.getTime() <= t && t < o.endsAt.getTime());
  return active.reduce<Occurrence | null>((best, o) => (best === null || o.endsAt > best.endsAt ? o : best), null);
}

/** The window's next `count` occurrences not yet over at `now` (the active one first), in order. */
export function upcomingOccurrences(w: MaintenanceSchedule, now: Date, count: number): Occurrence[] {
  const t = now.getTime();
  let from = localDay(t - w.durationMinutes * 60_000, w.timezone) - DAY_MS;
  const out: Occurrence[] = [];
  // Daily and weekly windows occur at least once a week; a one-off once: a bounded walk.
  const last = from + (count + 2) * 7 * DAY_MS;
  while (out.length < count && from <= last) {
    const to = from + 7 * DAY_MS - DAY_MS;
    out.push(...occurrencesOnDays(w, from, to).filter((o) => o.endsAt.getTime() > t));
    from = to + DAY_MS;
  }
  return out.slice(0, count);
}
