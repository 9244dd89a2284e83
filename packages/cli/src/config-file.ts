import { readFileSync } from 'node:fs';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';

/** The kinds a file declares, in the order `apply` creates them: a kind refers only to kinds before it. */
export const KINDS = ['channels', 'monitors', 'maintenance_windows', 'status_pages'] as const;
export type Kind = (typeof KINDS)[number];

/** One entry of a file: its kind, key, fields (everything but `key`) and where it was written. */
export interface Entry {
  kind: Kind;
  key: string;
  fields: Record<string, unknown>;
  file: string;
  line: number;
}

/** A problem with a file, pointing at where it is. */
export interface Problem {
  file: string;
  line: number;
  /** `monitors.api-health.check_interval`: the kind, the entry's key (or its index) and the field. */
  where: string;
  message: string;
}

/** One file as read: its data, and how to find the line of a path in it. */
export interface LoadedFile {
  file: string;
  data: unknown;
  lineOf(path: readonly (string | number)[]): number;
}

/** `${NAME}`: read from the environment when the file is applied (docs/config-as-code.md). */
export const ENV_REFERENCE = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

function lineFinder(doc: Document, counter: LineCounter): (path: readonly (string | number)[]) => number {
  return (path) => {
    // The deepest node the path reaches: a missing field points at its entry.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return counter.linePos(node.range[0]).line;
    }
    return 1;
  };
}

/** Reads and parses a YAML file; a syntax error is a problem at its line. */
export function loadFile(file: string, text = readFileSync(file, 'utf8')): { loaded?: LoadedFile; problems: Problem[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  if (doc.errors.length > 0) {
    return { problems: doc.errors.map((e) => ({ file, line: counter.linePos(e.pos[0]).line, where: '(file)', message: e.message.split('\n')[0]! })) };
  }
  const data: unknown = doc.toJS() ?? {};
  if (!isMap(doc.contents) && doc.contents !== null) return { problems: [{ file, line: 1, where: '(file)', message: 'the file must be a mapping of kinds (monitors, channels, ...)' }] };
  return { loaded: { file, data, lineOf: lineFinder(doc, counter) }, problems: [] };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The entries of files that passed the schema, and the keys declared twice. */
export function entriesOf(files: readonly LoadedFile[]): { entries: Entry[]; problems: Problem[] } {
  const entries: Entry[] = [];
  const problems: Problem[] = [];
  const seen = new Map<string, Entry>();
  for (const f of files) {
    if (!isObject(f.data)) continue;
    for (const kind of KINDS) {
      const list = f.data[kind];
      if (!Array.isArray(list)) continue;
      list.forEach((item, index) => {
        if (!isObject(item) || typeof item.key !== 'string') return;
        const { key, ...fields } = item;
        const entry: Entry = { kind, key, fields, file: f.file, line: f.lineOf([kind, index]) };
        const before = seen.get(`${kind}/${key}`);
        if (before) problems.push({ file: f.file, line: entry.line, where: `${kind}.${key}`, message: `key "${key}" is declared twice (also at ${before.file}:${before.line})` });
        else seen.set(`${kind}/${key}`, entry);
        entries.push(entry);
      });
    }
  }
  return { entries, problems };
}
