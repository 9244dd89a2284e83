/** A node of `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)` (the fields this report reads). */
export interface PlanNode {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  Operation?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Join Type'?: string;
  Strategy?: string;
  'Conflict Resolution'?: string;
  'Conflict Arbiter Indexes'?: string[];
  'Subplans Removed'?: number;
  'Plan Rows': number;
  'Actual Rows': number;
  'Actual Loops': number;
  'Heap Fetches'?: number;
  'Sort Method'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

export interface ExplainOutput {
  Plan: PlanNode;
  'Planning Time': number;
  'Execution Time': number;
  Planning?: { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number };
  Triggers?: { 'Trigger Name': string; Relation?: string; Time: number; Calls: number }[];
  JIT?: { Functions: number; Timing: { Total: number } };
}

/** A plan node as the report and the assertions read it. */
export interface NodeInfo {
  type: string;
  relation?: string;
  index?: string;
  backward: boolean;
  actualRows: number;
  loops: number;
  heapFetches?: number;
  depth: number;
}

/** Every node, depth first (init plans and sub plans included). */
export function planNodes(plan: PlanNode, depth = 0): NodeInfo[] {
  const own: NodeInfo = {
    type: plan['Node Type'] === 'ModifyTable' ? `${plan.Operation ?? 'Modify'}` : plan['Node Type'],
    relation: plan['Relation Name'],
    index: plan['Index Name'],
    backward: plan['Scan Direction'] === 'Backward',
    actualRows: plan['Actual Rows'],
    loops: plan['Actual Loops'],
    heapFetches: plan['Heap Fetches'],
    depth,
  };
  return [own, ...(plan.Plans ?? []).flatMap((child) => planNodes(child, depth + 1))];
}

// Daily partitions and their indexes differ only by the date: one label stands for all of them.
const PARTITION_DAY = /check_results_p\d{8}/g;
export const samePartitionLabel = (s: string): string => s.replace(PARTITION_DAY, 'check_results_p*');

function nodeLabel(n: PlanNode): string {
  const type = n['Node Type'];
  const dir = n['Scan Direction'] === 'Backward' ? ' Backward' : '';
  let label = type === 'ModifyTable' ? `${n.Operation ?? 'Modify'} on ${n['Relation Name']}` : `${type}${dir}`;
  if (type !== 'ModifyTable' && n['Relation Name']) label += ` on ${n['Relation Name']}`;
  if (n['Index Name']) label += ` using ${n['Index Name']}`;
  if (type === 'Aggregate' && n.Strategy && n.Strategy !== 'Plain') label = `${n.Strategy}Aggregate`;
  if (n['Join Type'] && n['Join Type'] !== 'Inner') label += ` (${n['Join Type']})`;
  if (n['Conflict Arbiter Indexes']?.length)
    label += ` [ON CONFLICT ${n['Conflict Resolution']} via ${n['Conflict Arbiter Indexes'].join(', ')}]`;
  if (n['Subplans Removed']) label += ` (${n['Subplans Removed']} pruned)`;
  if (n['Parent Relationship'] === 'InitPlan' || n['Parent Relationship'] === 'SubPlan')
    label = `${n['Subplan Name'] ?? n['Parent Relationship']}: ${label}`;
  return label;
}

/**
 * The plan on one line: `a → b` for a single child, `a → [x, y]` for several, with children that
 * differ only by their day partition folded into `N× …check_results_p*…`.
 */
export function planLine(n: PlanNode): string {
  const label = nodeLabel(n);
  const children = (n.Plans ?? []).map(planLine);
  if (children.length === 0) return label;
  if (children.length === 1) return `${label} → ${children[0]}`;
  const grouped = new Map<string, number>();
  for (const c of children) grouped.set(samePartitionLabel(c), (grouped.get(samePartitionLabel(c)) ?? 0) + 1);
  const parts = [...grouped].map(([c, count]) => (count > 1 ? `${count}× ${c}` : c));
  return `${label} → [${parts.join(', ')}]`;
}

/** Figures of one explained statement. */
export interface PlanFigures {
  executionMs: number;
  planningMs: number;
  rows: number;
  sharedHit: number;
  sharedRead: number;
  jitMs: number | null;
  triggers: { name: string; relation?: string; calls: number; ms: number }[];
}

export function planFigures(e: ExplainOutput): PlanFigures {
  return {
    executionMs: e['Execution Time'],
    planningMs: e['Planning Time'],
    rows: e.Plan['Actual Rows'],
    sharedHit: e.Plan['Shared Hit Blocks'] ?? 0,
    sharedRead: e.Plan['Shared Read Blocks'] ?? 0,
    jitMs: e.JIT ? e.JIT.Timing.Total : null,
    triggers: (e.Triggers ?? []).map((t) => ({ name: t['Trigger Name'], relation: t.Relation, calls: t.Calls, ms: t.Time })),
  };
}
