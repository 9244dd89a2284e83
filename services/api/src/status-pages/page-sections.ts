import { ownRule } from '../http/validators';
import type { JsonSchema } from '../openapi/json-schema';

/** A section's name: 1-100 characters, not only blanks (also a CHECK of status_page_sections). */
export const SECTION_NAME_MAX = 100;
export const MAX_PAGE_SECTIONS = 50;
const ID_MAX = 2_147_483_647;
/** A page holds at most 100 monitors (MAX_PAGE_MONITORS, status-page.dto.ts, which imports this file). */
const MAX_PAGE_MONITORS = 100;

/** One named section of a page: its name and its monitors, in the order shown. */
export interface PageSectionInput {
  name: string;
  monitor_ids: number[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= ID_MAX;

/**
 * Every problem of a `sections` value, each naming where it is (`sections[1].name`); none when it
 * is an array of at most 50 `{name, monitor_ids}` with distinct names (letter case aside, since
 * visitors could not tell "API" from "api") and no monitor in two sections or twice in one.
 * Whether the monitors are on the page is the service's to check.
 */
export function sectionListProblems(value: unknown): string[] {
  if (!Array.isArray(value)) return ['sections must be an array of {name, monitor_ids}'];
  if (value.length > MAX_PAGE_SECTIONS) return [`sections must hold at most ${MAX_PAGE_SECTIONS} sections`];
  const problems: string[] = [];
  const names = new Map<string, number>();
  const sectionOf = new Map<number, number>();
  value.forEach((section: unknown, i) => {
    const at = `sections[${i}]`;
    if (!isObject(section)) {
      problems.push(`${at} must be an object {name, monitor_ids}`);
      return;
    }
    const unknown = Object.keys(section).filter((k) => k !== 'name' && k !== 'monitor_ids');
    if (unknown.length > 0) problems.push(`${at} has unknown fields: ${unknown.join(', ')}`);
    const { name, monitor_ids: ids } = section;
    if (typeof name !== 'string' || name.trim() === '' || name.length > SECTION_NAME_MAX) {
      problems.push(`${at}.name must be a text of 1-${SECTION_NAME_MAX} characters, not only blanks`);
    } else {
      const key = name.trim().toLowerCase();
      const first = names.get(key);
      if (first !== undefined) problems.push(`${at}.name repeats the name of sections[${first}]`);
      else names.set(key, i);
    }
    if (!Array.isArray(ids) || ids.length > MAX_PAGE_MONITORS || !ids.every(isId)) {
      problems.push(`${at}.monitor_ids must be an array of at most ${MAX_PAGE_MONITORS} monitor ids`);
      return;
    }
    for (const id of ids) {
      const other = sectionOf.get(id);
      if (other === undefined) sectionOf.set(id, i);
      else problems.push(other === i ? `${at}.monitor_ids repeats monitor ${id}` : `monitor ${id} is in sections[${other}] and sections[${i}]; a monitor is in at most one section`);
    }
  });
  return problems;
}

/** The `sections` rule of a status page body (openapi/dto-schema.ts gives it its JSON Schema). */
export const IsSectionList = ownRule(
  'isSectionList',
  (value) => sectionListProblems(value).length === 0,
  (args) => sectionListProblems(args.value).join('; '),
);

/** The JSON Schema of what `IsSectionList` accepts (its cross-section rules in the description). */
export const SECTION_LIST_SCHEMA: JsonSchema = {
  type: 'array',
  maxItems: MAX_PAGE_SECTIONS,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'monitor_ids'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: SECTION_NAME_MAX, pattern: '\\S' },
      monitor_ids: { type: 'array', maxItems: MAX_PAGE_MONITORS, uniqueItems: true, items: { type: 'integer', format: 'int32', minimum: 1, maximum: ID_MAX } },
    },
  },
  description:
    "Named sections of the page, in order, each with some of the page's monitors (of monitor_ids) in the order shown. Names are distinct (letter case aside); a monitor is in at most one section; monitors in none are shown first, without a heading. Given, it replaces every section.",
};

/** Where a monitor of a page is shown: its section's name and position and its own in it; all null outside any section. */
export interface SectionPlace {
  section: string | null;
  section_position: number | null;
  position_in_section: number | null;
}

/** A run of consecutive monitors of the public page under one heading; `name` null for those in no section. */
export interface PublicSection {
  name: string | null;
  monitor_count: number;
}

/**
 * The page's monitors (given in page order) in the order visitors see them: first those in no
 * section, in page order, without a heading; then each section in order, its monitors in its
 * order. Sections without monitors are left out: a heading over nothing tells a visitor nothing.
 */
export function groupBySection<M extends SectionPlace>(monitors: readonly M[]): { monitors: M[]; sections: PublicSection[] } {
  const loose = monitors.filter((m) => m.section === null);
  const grouped = monitors
    .filter((m) => m.section !== null)
    .sort((a, b) => a.section_position! - b.section_position! || a.position_in_section! - b.position_in_section!);
  const sections: PublicSection[] = loose.length > 0 ? [{ name: null, monitor_count: loose.length }] : [];
  let last: number | null = null;
  for (const m of grouped) {
    if (m.section_position === last) sections[sections.length - 1]!.monitor_count += 1;
    else sections.push({ name: m.section, monitor_count: 1 });
    last = m.section_position;
  }
  return { monitors: [...loose, ...grouped], sections };
}
