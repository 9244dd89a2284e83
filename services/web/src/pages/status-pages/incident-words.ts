import type { Schema } from '@uptime/client';

/** An incident's impacts and statuses as the page words them. */
export type Incident = Schema<'Incident'>;
export type Impact = Incident['impact'];
export type Status = Incident['status'];

export const IMPACTS: { value: Impact; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'minor', label: 'Minor' },
  { value: 'major', label: 'Major' },
  { value: 'critical', label: 'Critical' },
];
export const STATUSES: { value: Status; label: string }[] = [
  { value: 'investigating', label: 'Investigating' },
  { value: 'identified', label: 'Identified' },
  { value: 'monitoring', label: 'Monitoring' },
  { value: 'resolved', label: 'Resolved' },
];
/** The word of a value of `list`. */
export const wordOf = <T extends string>(list: { value: T; label: string }[], value: T) =>
  list.find((x) => x.value === value)?.label ?? value;
