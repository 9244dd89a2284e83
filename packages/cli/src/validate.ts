import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import bundledSchema from './config.schema.json';
import { entriesOf, ENV_REFERENCE, KINDS, loadFile, type Entry, type Kind, type LoadedFile, type Problem } from './config-file';

/** The JSON Schema of the file: the server's (GET /api/v1/config.schema.json), or the copy built with this CLI. */
export type ConfigSchema = Record<string, unknown>;
export const BUNDLED_SCHEMA: ConfigSchema = bundledSchema;

/** The kinds an entry's fields refer to by key. */
export const REFERENCES: Record<Kind, Record<string, Kind>> = {
  channels: {},
  monitors: { depends_on: 'monitors', channels: 'channels' },
  maintenance_windows: { monitors: 'monitors' },
  status_pages: { monitors: 'monitors' },
};

/** The entry's name in messages: `monitors.api-health`, or `monitors[3]` before its key is known. */
function whereOf(file: LoadedFile, path: string[]): string {
  const [kind, index, ...rest] = path;
  if (kind === undefined) return '(file)';
  const list = (file.data as Record<string, unknown>)[kind];
  const item = Array.isArray(list) && index !== undefined ? (list[Number(index)] as { key?: unknown } | undefined) : undefined;
  const entry = index === undefined ? kind : typeof item?.key === 'string' ? `${kind}.${item.key}` : `${kind}[${index}]`;
  return [entry, ...rest].join('.');
}

function messageOf(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `unknown field "${String(e.params.additionalProperty)}"`;
  if (e.keyword === 'required') return `"${String(e.params.missingProperty)}" is required`;
  return e.message ?? e.keyword;
}

/**
 * The schema's problems with one file, one per place: of the alternatives of an anyOf (a
 * channel's config per type, a url or a heartbeat) only the innermost reasons are kept.
 */
function schemaProblems(validate: ReturnType<Ajv2020['compile']>, file: LoadedFile): Problem[] {
  if (validate(file.data)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'if');
  const problems = new Map<string, Problem>();
  for (const e of errors) {
    const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const field = e.keyword === 'required' ? [...path, String(e.params.missingProperty)] : path;
    const where = whereOf(file, field);
    const id = `${where} ${messageOf(e)}`;
    if (!problems.has(id)) problems.set(id, { file: file.file, line: file.lineOf(path.map((p) => (/^\d+$/.test(p) ? Number(p) : p))), where, message: messageOf(e) });
  }
  return [...problems.values()];
}

/** What validation found: the entries of the files, and every problem, in file and line order. */
export interface Validation {
  entries: Entry[];
  problems: Problem[];
}

/**
 * Checks files against the schema, then what a schema cannot say: a key declared twice, a
 * reference to a key neither the files nor `serverKeys` (the server's resources, when asked
 * online) have, the rules of a page's sections (sectionProblems), and an environment variable a
 * `${NAME}` needs but `env` lacks.
 */
export function validateFiles(
  files: readonly string[],
  options: { schema?: ConfigSchema; env?: NodeJS.ProcessEnv; serverKeys?: Partial<Record<Kind, ReadonlySet<string>>>; texts?: Record<string, string> } = {},
): Validation {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(options.schema ?? BUNDLED_SCHEMA);
  const problems: Problem[] = [];
  const valid: LoadedFile[] = [];
  for (const file of files) {
    const { loaded, problems: syntax } = loadFile(file, options.texts?.[file]);
    problems.push(...syntax);
    if (!loaded) continue;
    const found = schemaProblems(validate, loaded);
    problems.push(...found);
    valid.push(loaded);
  }
  const { entries, problems: twice } = entriesOf(valid);
  problems.push(...twice);
  const declared = new Map<Kind, Set<string>>(KINDS.map((k) => [k, new Set(entries.filter((e) => e.kind === k).map((e) => e.key))]));
  const env = options.env ?? process.env;
  for (const entry of entries) {
    const file = valid.find((f) => f.file === entry.file)!;
    const index = ((file.data as Record<string, unknown[]>)[entry.kind] ?? []).findIndex((item) => (item as { key?: unknown }).key === entry.key);
    for (const [field, kind] of Object.entries(REFERENCES[entry.kind])) {
      const refs = entry.fields[field];
      if (!Array.isArray(refs)) continue;
      refs.forEach((ref, i) => {
        if (typeof ref !== 'string' || declared.get(kind)!.has(ref) || options.serverKeys?.[kind]?.has(ref)) return;
        const where = options.serverKeys ? 'in the files or on the server' : 'in the files';
        problems.push({ file: entry.file, line: file.lineOf([entry.kind, index, field, i]), where: `${entry.kind}.${entry.key}.${field}`, message: `no ${kind.replace('_', ' ')} has the key "${ref}" ${where}` });
      });
    }
    if (entry.kind === 'status_pages') problems.push(...sectionProblems(entry, file, index, declared.get('monitors')!, options.serverKeys?.monitors));
    const config = entry.fields.config;
    if (entry.kind === 'channels' && config && typeof config === 'object') {
      for (const [name, value] of Object.entries(config)) {
        const variable = typeof value === 'string' ? ENV_REFERENCE.exec(value)?.[1] : undefined;
        if (variable !== undefined && env[variable] === undefined) {
          problems.push({ file: entry.file, line: file.lineOf([entry.kind, index, 'config', name]), where: `channels.${entry.key}.config.${name}`, message: `environment variable ${variable} is not set` });
        }
      }
    }
  }
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { entries, problems };
}

/**
 * The rules of a page's sections the API holds (docs/status-pages.md, "Sections"), each a problem
 * at its line: no two sections share a name (trimmed, letter case aside); each monitor key is
 * declared in the files or on the server, one of the page's `monitors`, and in at most one
 * section.
 */
function sectionProblems(entry: Entry, file: LoadedFile, index: number, declared: ReadonlySet<string>, onServer: ReadonlySet<string> | undefined): Problem[] {
  const { sections, monitors } = entry.fields;
  if (!Array.isArray(sections)) return [];
  const onPage = new Set(Array.isArray(monitors) ? monitors : []);
  const names = new Map<string, number>();
  const placed = new Map<string, number>();
  const problems: Problem[] = [];
  const at = (s: number, field: string, ...rest: number[]) => ({ file: entry.file, line: file.lineOf([entry.kind, index, 'sections', s, field, ...rest]), where: `${entry.kind}.${entry.key}.sections.${s}.${field}` });
  sections.forEach((section: unknown, s) => {
    const { name, monitors: refs } = (section ?? {}) as { name?: unknown; monitors?: unknown };
    if (typeof name === 'string') {
      const folded = name.trim().toLowerCase();
      const first = names.get(folded);
      if (first !== undefined) problems.push({ ...at(s, 'name'), message: `section ${first} already has the name "${name.trim()}" (names are compared trimmed, letter case aside)` });
      else names.set(folded, s);
    }
    if (!Array.isArray(refs)) return;
    refs.forEach((ref, i) => {
      // A key given twice in one section is the schema's (uniqueItems) to say, once.
      if (typeof ref !== 'string' || refs.indexOf(ref) !== i) return;
      const where = at(s, 'monitors', i);
      const first = placed.get(ref);
      if (!declared.has(ref) && !onServer?.has(ref)) problems.push({ ...where, message: `no monitors has the key "${ref}" ${onServer ? 'in the files or on the server' : 'in the files'}` });
      else if (!onPage.has(ref)) problems.push({ ...where, message: `monitor "${ref}" is not among the page's monitors` });
      else if (first !== undefined) problems.push({ ...where, message: `monitor "${ref}" is already in section ${first}: a monitor is in at most one section` });
      if (first === undefined) placed.set(ref, s);
    });
  });
  return problems;
}

/** `file:line: where: message`, as editors and CI logs link it. */
export const formatProblem = (p: Problem): string => `${p.file}:${p.line}: ${p.where}: ${p.message}`;
