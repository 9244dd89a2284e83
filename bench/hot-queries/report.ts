import type { HarnessResult, StatementReport } from './harness';
import { samePartitionLabel } from './plan';

const ms = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1));

/** The statement, whitespace collapsed, cut to `max` characters. */
export const shortSql = (sql: string, max = 110): string => (sql.length <= max ? sql : `${sql.slice(0, max - 1)}…`);

/** What a statement did to each relation, e.g. `monitors_pkey 250 idx`, `check_results_p20250101 +250`. */
export function activityLine(s: StatementReport): string {
  return s.activity
    .map((a) => {
      const parts: string[] = [];
      if (a.scans) parts.push(a.kind === 'index' ? `${a.scans} idx scans` : `${a.scans} SEQ SCANS`);
      if (a.inserted) parts.push(`+${a.inserted}`);
      if (a.updated) parts.push(`~${a.updated} (${a.hotUpdated} HOT)`);
      if (a.deleted) parts.push(`-${a.deleted}`);
      return `${a.relation} ${parts.join(' ')}`;
    })
    .join('; ');
}

/** Sequential scans of a statement: plan nodes, and tables scanned (also by triggers). */
export function seqScansOf(s: StatementReport): string[] {
  const fromPlan = s.nodes.filter((n) => n.type === 'Seq Scan').map((n) => n.relation ?? '?');
  const fromActivity = s.activity.filter((a) => a.kind === 'table' && a.scans > 0).map((a) => a.relation);
  return [...new Set([...fromPlan, ...fromActivity])].sort();
}

/** The readable report: one block per hot path, one entry per distinct statement. */
export function textReport(r: HarnessResult): string {
  const out: string[] = [];
  out.push(`Hot queries at ${r.seeded.counts.monitors} monitors (PostgreSQL ${r.postgres}); rows: ${JSON.stringify(r.seeded.counts)}`);
  out.push(`Day partitions: ${r.partitions.map((p) => p.name).join(', ')}`);
  for (const path of r.paths) {
    out.push('', `== ${path.name}: ${path.description}`);
    if (path.error) out.push(`   !! the product's code failed: ${path.error}`);
    const statements = r.statements.filter((s) => s.path === path.name);
    if (statements.length === 0) out.push('   (no statement)');
    statements.forEach((s, i) => {
      const f = s.figures;
      out.push(`  [${i + 1}] ${shortSql(s.sql, 160)}`);
      out.push(
        `      ${s.calls > 1 ? `×${s.calls} ` : ''}${s.inTransaction ? 'in the batch transaction; ' : ''}params: ${shortSql(s.params, 120)}`,
      );
      if (s.explainError) out.push(`      EXPLAIN failed: ${s.explainError}`);
      if (s.error) out.push(`      !! the product's run failed: ${s.error}`);
      out.push(`      plan: ${samePartitionLabel(s.plan)}`);
      if (f) {
        out.push(
          `      rows ${f.rows} · exec ${ms(f.executionMs)} ms${s.calls > 1 ? ` (max ${ms(s.maxExecutionMs)})` : ''} · planning ${ms(f.planningMs)} ms · shared hit ${f.sharedHit} read ${f.sharedRead}` +
            `${f.jitMs !== null ? ` · JIT ${ms(f.jitMs)} ms` : ''} · product's run ${ms(s.wallMs)} ms`,
        );
        if (f.triggers.length > 0)
          out.push(`      triggers: ${f.triggers.map((t) => `${t.name} on ${t.relation} ×${t.calls} ${ms(t.ms)} ms`).join('; ')}`);
      }
      if (s.activity.length > 0) out.push(`      touched: ${activityLine(s)}`);
      const seq = seqScansOf(s);
      if (seq.length > 0) out.push(`      seq scans: ${seq.join(', ')}`);
    });
  }
  return out.join('\n');
}

/** One JSON object for the whole run (printed on one line). */
export function jsonSummary(r: HarnessResult): Record<string, unknown> {
  return {
    bench: 'hot-queries',
    postgres: r.postgres,
    monitors: r.seeded.counts.monitors,
    rows: r.seeded.counts,
    seed_ms: Math.round(r.seedMs),
    statements: r.statements.map((s) => ({
      path: s.path,
      sql: shortSql(s.sql, 100),
      calls: s.calls,
      plan: samePartitionLabel(s.plan),
      rows: s.figures?.rows ?? null,
      execution_ms: s.figures ? Math.round(s.figures.executionMs * 100) / 100 : null,
      max_execution_ms: s.maxExecutionMs === null ? null : Math.round(s.maxExecutionMs * 100) / 100,
      planning_ms: s.figures ? Math.round(s.figures.planningMs * 100) / 100 : null,
      shared_hit: s.figures?.sharedHit ?? null,
      shared_read: s.figures?.sharedRead ?? null,
      jit_ms: s.figures?.jitMs ?? null,
      seq_scans: seqScansOf(s),
      error: s.error ?? s.explainError ?? null,
    })),
    path_errors: Object.fromEntries(r.paths.filter((p) => p.error).map((p) => [p.name, p.error])),
  };
}

/** A markdown table of every statement: path, statement, plan, time. */
export function markdownTable(r: HarnessResult): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const rows = r.statements.map(
    (s) =>
      `| ${s.path} | \`${esc(shortSql(s.sql, 90))}\`${s.calls > 1 ? ` ×${s.calls}` : ''} | ${esc(samePartitionLabel(s.plan))} | ${s.figures?.rows ?? '–'} | ${ms(s.figures?.executionMs)}${s.calls > 1 ? ` (max ${ms(s.maxExecutionMs)})` : ''} |`,
  );
  return ['| Path | Statement | Plan | Rows | ms |', '|---|---|---|---|---|', ...rows].join('\n');
}
