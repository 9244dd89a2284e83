import { ApiError, type Schema } from '@uptime/client';
import { refusalsByField, type FormErrors } from '../../app/field-checks';

/** A named section as edited: `key` tells sections apart while their names are being typed. */
export interface SectionValues {
  key: string;
  name: string;
  /** Monitors of the page, in the order shown in the section. */
  monitorIds: number[];
}

/** The status page form as typed: monitors chosen and ordered, sections, the rest as text and a toggle. */
export interface StatusPageFormValues {
  slug: string;
  title: string;
  description: string;
  monitorIds: number[];
  sections: SectionValues[];
  published: boolean;
  /** Open a draft incident when one of the page's monitors goes offline. */
  autoIncidents: boolean;
}

let sectionKeys = 0;
const newSectionKey = (): string => `section-${(sectionKeys += 1)}`;

export const emptyStatusPageForm = (): StatusPageFormValues => ({
  slug: '',
  title: '',
  description: '',
  monitorIds: [],
  sections: [],
  published: true,
  autoIncidents: false,
});

export const statusPageToForm = (page: Schema<'StatusPage'>): StatusPageFormValues => ({
  slug: page.slug,
  title: page.title,
  description: page.description ?? '',
  monitorIds: page.monitors.map((m) => m.id),
  sections: page.sections.map((sec) => ({ key: newSectionKey(), name: sec.name, monitorIds: [...sec.monitor_ids] })),
  published: page.published,
  autoIncidents: page.auto_incidents,
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
    // Every section, so the page's sections become exactly those of the form (an emptied list removes them).
    sections: values.sections.map((sec) => ({
      name: sec.name.trim(),
      monitor_ids: sec.monitorIds.filter((id) => values.monitorIds.includes(id)),
    })),
    published: values.published,
    auto_incidents: values.autoIncidents,
  };
}

/** Adds a monitor at the end, or takes it off the page. */
export function toggleMonitor(ids: number[], id: number, on: boolean): number[] {
  const without = ids.filter((x) => x !== id);
  return on ? [...without, id] : without;
}

/** Moves the item at `index` one place up (-1) or down (+1); out of range changes nothing. */
export function moveItem<T>(items: T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return items;
  const next = [...items];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** Moves the monitor at `index` one place up (-1) or down (+1); out of range changes nothing. */
export const moveMonitor = (ids: number[], index: number, delta: -1 | 1): number[] => moveItem(ids, index, delta);

/** What a section is called in buttons and the preview: its name, or "Section N" while it has none. */
export const sectionLabel = (section: SectionValues, index: number): string => section.name.trim() || `Section ${index + 1}`;

/** A new section, without a name or monitors yet, at the end. */
export const addSection = (sections: SectionValues[]): SectionValues[] => [...sections, { key: newSectionKey(), name: '', monitorIds: [] }];

/** Sets the name of the section `key`, as typed (trimmed when sent). */
export const renameSection = (sections: SectionValues[], key: string, name: string): SectionValues[] =>
  sections.map((sec) => (sec.key === key ? { ...sec, name } : sec));

/** Removes the section `key`; its monitors stay on the page, in no section. */
export const removeSection = (sections: SectionValues[], key: string): SectionValues[] => sections.filter((sec) => sec.key !== key);

/** The key of the section holding `monitorId`, or null when it is in none. */
export const sectionOf = (sections: SectionValues[], monitorId: number): string | null =>
  sections.find((sec) => sec.monitorIds.includes(monitorId))?.key ?? null;

/** Puts a monitor at the end of the section `key` (null: in no section), out of any other: a monitor is in at most one. */
export function assignMonitor(sections: SectionValues[], monitorId: number, key: string | null): SectionValues[] {
  return sections.map((sec) => {
    const without = sec.monitorIds.filter((id) => id !== monitorId);
    return { ...sec, monitorIds: sec.key === key ? [...without, monitorId] : without };
  });
}

/** Moves the monitor at `index` of the section `key` one place up or down in it. */
export const moveInSection = (sections: SectionValues[], key: string, index: number, delta: -1 | 1): SectionValues[] =>
  sections.map((sec) => (sec.key === key ? { ...sec, monitorIds: moveItem(sec.monitorIds, index, delta) } : sec));

/** The sections once the page's monitors are `monitorIds`: a monitor taken off the page leaves its section too. */
export const keepOnPage = (sections: SectionValues[], monitorIds: number[]): SectionValues[] =>
  sections.map((sec) => ({ ...sec, monitorIds: sec.monitorIds.filter((id) => monitorIds.includes(id)) }));

/** One group of the preview: a section's name (null for the monitors in none) and its monitors in order. */
export interface PreviewGroup {
  name: string | null;
  monitorIds: number[];
}

/**
 * The page's monitors grouped as visitors will see them (docs/status-pages.md, "Sections"): those
 * in no section first, in page order, without a heading; then each section with monitors, in
 * order. A section without monitors is not shown on the page, so not in the preview either.
 */
export function previewGroups(values: Pick<StatusPageFormValues, 'monitorIds' | 'sections'>): PreviewGroup[] {
  const sections = keepOnPage(values.sections, values.monitorIds);
  const loose = values.monitorIds.filter((id) => sectionOf(sections, id) === null);
  const named = sections
    .map((sec, i) => ({ name: sectionLabel(sec, i), monitorIds: sec.monitorIds }))
    .filter((group) => group.monitorIds.length > 0);
  return [...(loose.length > 0 ? [{ name: null, monitorIds: loose }] : []), ...named];
}

/**
 * An API message about a section in the form's words: "sections[2].name repeats the name of
 * sections[0]" → "Section 3 repeats the name of section 1".
 */
export function humanSectionMessage(message: string): string {
  const said = message.replace(/sections\[(\d+)\](\.name)?/g, (_, i: string) => `section ${Number(i) + 1}`);
  return said === message ? message : said.charAt(0).toUpperCase() + said.slice(1);
}

/**
 * The API's refusals by form field, in the form's words: VALIDATION_ERROR details (`monitor_ids[2]`
 * → monitor_ids, a section named by its place), and a taken slug (409 RESOURCE_EXISTS) on the
 * slug field.
 */
export function statusPageFieldErrors(err: unknown): FormErrors {
  const out = refusalsByField(err, { reword: humanSectionMessage });
  if (err instanceof ApiError && err.status === 409) {
    const message = (err.body as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (message?.code === 'RESOURCE_EXISTS') out.slug = [...(out.slug ?? []), message.message ?? 'This slug is taken'];
  }
  return out;
}
