/** The parts of a V8 `.cpuprofile` (as written by `node --cpu-prof`) that the summary reads. */
export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number; scriptId?: string };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  /** µs on the machine's monotonic clock (the clock of `process.hrtime`). */
  startTime: number;
  endTime: number;
  /** Leaf node id of each sample. */
  samples?: number[];
  /** µs since the previous sample (the first: since `startTime`). */
  timeDeltas?: number[];
}

export interface FunctionTime {
  functionName: string;
  /** `bullmq/dist/cjs/classes/worker.js:123`, `services/check-worker/src/x.ts:4`, `node:net:1`, or '' for native code. */
  location: string;
  area: string;
  selfMs: number;
  /** Of the sampled (wall) time. */
  percent: number;
  /** For node core and native functions: the libraries they ran for (up to 3, % of this function's time). */
  via?: AreaTime[];
}

export interface AreaTime {
  area: string;
  selfMs: number;
  percent: number;
}

export interface CpuProfileSummary {
  /** Wall time covered by the samples counted (the window, clipped to the profile). */
  sampledMs: number;
  /** `sampledMs` less `(idle)`: roughly the thread's CPU time. */
  busyMs: number;
  top: FunctionTime[];
  /** Self time by the area of the function's own code (native code counts in its caller's). */
  areas: AreaTime[];
  /**
   * Each sample counted to the innermost frame of its stack outside node core and native code:
   * what the time in sockets, streams and http was spent for (ioredis, got, pg...).
   */
  byLibrary: AreaTime[];
}

export interface SummaryOptions {
  /** The repository root, to shorten its paths and name its packages. */
  root: string;
  /** Count only samples inside [fromUs, toUs) (monotonic µs); the whole profile without. */
  window?: { fromUs: number; toUs: number };
  top?: number;
}

/** V8's pseudo-frames, each an area of its own; `(root)` is only the tree's top. */
const PSEUDO_FRAMES = new Set(['(program)', '(idle)', '(garbage collector)']);
const CORE = 'node (core)';

function pathOf(url: string): string {
  return url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
}

/** The npm package of a path inside node_modules (pnpm's `.pnpm/x@1/node_modules/x/...` included). */
function packageOf(path: string): { name: string; rest: string } | undefined {
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = path.slice(at + '/node_modules/'.length).split('/');
  const size = parts[0]?.startsWith('@') ? 2 : 1;
  return { name: parts.slice(0, size).join('/'), rest: parts.slice(size).join('/') };
}

/**
 * The area a frame's own code belongs to: a package under node_modules, the repository's
 * `services/x` or `packages/x` (or its top folder), `node (core)`, a V8 pseudo-frame; undefined
 * for native code without a script, which counts towards its caller's area.
 */
export function areaOfFrame(frame: CpuProfileNode['callFrame'], root: string): string | undefined {
  if (!frame.url) return PSEUDO_FRAMES.has(frame.functionName) ? frame.functionName : undefined;
  if (frame.url.startsWith('node:')) return CORE;
  const path = pathOf(frame.url);
  const pkg = packageOf(path);
  if (pkg) return pkg.name;
  if (path.startsWith(`${root}/`)) {
    const segments = path.slice(root.length + 1).split('/');
    return segments[0] === 'services' || segments[0] === 'packages' ? segments.slice(0, 2).join('/') : segments[0]!;
  }
  return '(other scripts)';
}

/** A frame's place, short: package-relative, repository-relative or as V8 names it; 1-based line. */
export function locationOfFrame(frame: CpuProfileNode['callFrame'], root: string): string {
  if (!frame.url) return '';
  const line = frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : '';
  const path = pathOf(frame.url);
  const pkg = packageOf(path);
  if (pkg) return `${pkg.name}/${pkg.rest}${line}`;
  if (path.startsWith(`${root}/`)) return `${path.slice(root.length + 1)}${line}`;
  return `${frame.url}${line}`;
}

const ms = (us: number): number => Math.round(us / 100) / 10;
const pct = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * Self time per function and per area from a sampled profile. A sample's time runs until the next
 * sample (the last: until the profile's end), as DevTools counts it; samples are clipped to the
 * window. Native frames without a script (writev, JSON.parse...) count in their caller's area.
 */
export function summariseCpuProfile(profile: CpuProfile, o: SummaryOptions): CpuProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const areaCache = new Map<number, string>();
  const areaOfNode = (id: number): string => {
    const cached = areaCache.get(id);
    if (cached !== undefined) return cached;
    const node = nodes.get(id);
    const own = node ? areaOfFrame(node.callFrame, o.root) : undefined;
    const parent = parentOf.get(id);
    const area = own ?? (parent === undefined ? '(native)' : areaOfNode(parent));
    areaCache.set(id, area);
    return area;
  };

  // The innermost library on a node's stack, or undefined when there is none below (root).
  const libraryCache = new Map<number, string | undefined>();
  const libraryOfNode = (id: number): string | undefined => {
    if (libraryCache.has(id)) return libraryCache.get(id);
    const node = nodes.get(id);
    const own = node ? areaOfFrame(node.callFrame, o.root) : undefined;
    const parent = parentOf.get(id);
    const library = own !== undefined && own !== CORE ? own : parent === undefined ? undefined : libraryOfNode(parent);
    libraryCache.set(id, library);
    return library;
  };

  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const from = o.window?.fromUs ?? profile.startTime;
  const to = o.window?.toUs ?? profile.endTime;
  const selfUs = new Map<number, number>();
  const times: number[] = [];
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) times.push((t += deltas[i] ?? 0));
  let sampledUs = 0;
  for (let i = 0; i < samples.length; i++) {
    const start = Math.max(times[i]!, from);
    const end = Math.min(i + 1 < samples.length ? times[i + 1]! : profile.endTime, to);
    if (end <= start) continue;
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + end - start);
    sampledUs += end - start;
  }

  const byFunction = new Map<string, { frame: CpuProfileNode['callFrame']; us: number; via: Map<string, number> }>();
  const byArea = new Map<string, number>();
  const byLibrary = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const area = areaOfNode(id);
    const library = libraryOfNode(id) ?? area;
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    byLibrary.set(library, (byLibrary.get(library) ?? 0) + us);
    const key = `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}`;
    let entry = byFunction.get(key);
    if (!entry) byFunction.set(key, (entry = { frame, us: 0, via: new Map() }));
    entry.us += us;
    entry.via.set(library, (entry.via.get(library) ?? 0) + us);
  }
  const rollup = (m: Map<string, number>, whole: number): AreaTime[] =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ area: name, selfMs: ms(us), percent: pct(us, whole) }));
  const idleUs = byArea.get('(idle)') ?? 0;
  const top = [...byFunction.values()]
    .filter((f) => f.frame.functionName !== '(idle)')
    .sort((a, b) => b.us - a.us)
    .slice(0, o.top ?? 12)
    .map((f): FunctionTime => {
      // A native frame is listed once across its callers, so it is not given one caller's area.
      const area = areaOfFrame(f.frame, o.root) ?? '(native)';
      const shown: FunctionTime = {
        functionName: f.frame.functionName || '(anonymous)',
        location: locationOfFrame(f.frame, o.root),
        area,
        selfMs: ms(f.us),
        percent: pct(f.us, sampledUs),
      };
      if (area === CORE || area === '(native)') shown.via = rollup(f.via, f.us).slice(0, 3);
      return shown;
    });
  return {
    sampledMs: ms(sampledUs),
    busyMs: ms(sampledUs - idleUs),
    top,
    areas: rollup(byArea, sampledUs),
    byLibrary: rollup(byLibrary, sampledUs),
  };
}
