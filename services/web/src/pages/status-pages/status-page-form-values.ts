import { ApiError, type Schema } from '@uptime/client';
import { fieldErrors } from '../../app/errors';

/** The status page form as typed: monitors chosen and ordered, the rest as text and a toggle. */
export interface StatusPageFormValues {
  slug: string;
  title: string;
  description: string;
  monitorIds: number[];
  published: boolean;
}

export const emptyStatusPageForm = (): StatusPageFormValues => ({
  slug: '',
  title: '',
  description: '',
  monitorIds: [],
  published: true,
});

export const statusPageToForm = (page: Schema<'StatusPage'>): StatusPageFormValues => ({
  slug: page.slug,
  title: page.title,
  description: page.description ?? '',
  monitorIds: page.monitors.map((m) => m.id),
  published: page.published,
});

/**
 * The body of a create or a full update (PUT): every field, so an emptied description is sent
 * as null and clears it, and `monitor_ids` replaces the page's list in the order shown.
 */
export function formToStatusPageBody(values: StatusPageFormValues): Schema<'StatusPageCreate'> {
  const description = values.description.trim();
  return {
    slug: values.slug.trim().toLowerCase(),
    title: values.title.trim(),
    description: description === '' ? null : description,
    monitor_ids: [...values.monitorIds],
    published: values.published,
  };
}

/** Adds a monitor at the end, or takes it off the page. */
export function toggleMonitor(ids: number[], id: number, on: boolean): number[] {
  const without = ids.filter((x) => x !== id);
  return on ? [...without, id] : without;
}

/** Moves the monitor at `index` one place up (-1) or down (+1); out of range changes nothing. */
export function moveMonitor(ids: number[], index: number, delta: -1 | 1): number[] {
  const to = index + delta;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return ids;
  const next = [...ids];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/**
 * The API's refusals by form field: VALIDATION_ERROR details (`monitor_ids[2]` → monitor_ids),
 * and a taken slug (409 RESOURCE_EXISTS) on the slug field.
 */
export function statusPageFieldErrors(err: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fieldErrors(err))) {
    const field = key.split(/[.[]/)[0]!;
    out[field] = [...(out[field] ?? []), ...messages];
  }
  if (err instanceof ApiError && err.status === 409) {
    const message = (err.body as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (message?.code === 'RESOURCE_EXISTS') out.slug = [...(out.slug ?? []), message.message ?? 'This slug is taken'];
  }
  return out;
}
