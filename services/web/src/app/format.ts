import { useMemo } from 'react';
import { usePreferences } from './session';

/** Formatting of times in the user's time zone preference, and of durations and figures. */
export interface Format {
  timeZone: string;
  dateTime(iso: string | null): string;
  time(iso: string | null): string;
  /** "3 min ago" */
  ago(iso: string | null): string;
  /** Chart axis labels, from epoch milliseconds: "14:05" and "25 Nov". */
  axisTime(ms: number): string;
  axisDate(ms: number): string;
}

export function makeFormat(timeZone: string): Format {
  const dateTime = new Intl.DateTimeFormat(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'medium' });
  const zoneName = new Intl.DateTimeFormat(undefined, { timeZone, timeZoneName: 'short' });
  const time = new Intl.DateTimeFormat(undefined, { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const axisTime = new Intl.DateTimeFormat(undefined, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const axisDate = new Intl.DateTimeFormat(undefined, { timeZone, month: 'short', day: 'numeric' });
  const zoneOf = (d: Date): string => zoneName.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  return {
    timeZone,
    dateTime: (iso) => (iso ? `${dateTime.format(new Date(iso))} ${zoneOf(new Date(iso))}` : '—'),
    time: (iso) => (iso ? time.format(new Date(iso)) : '—'),
    axisTime: (ms) => axisTime.format(ms),
    axisDate: (ms) => axisDate.format(ms),
    ago: (iso) => (iso ? `${duration(Math.max(0, (Date.now() - Date.parse(iso)) / 1000))} ago` : '—'),
  };
}

const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The formatter for the signed-in user's time zone (the browser's until preferences load). */
export function useFormat(): Format {
  const zone = usePreferences().data?.timezone ?? browserZone();
  return useMemo(() => makeFormat(zone), [zone]);
}

/** Seconds as "2 h 5 min", "45 s". */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
  const d = Math.floor(h / 24);
  return `${d} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

export const percent = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `${value.toFixed(value >= 99.995 || value === 0 ? 0 : 2)}%`;
export const millis = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `${Math.round(value)} ms`;
