import { coveredLines, functionCounter, type CoverageMap } from '../instrument/coverageModel.ts';
import type { CoverageDetail, StatementCount } from '../core/coverageDetail.ts';

/**
 * The detail of one execution. `covered` is the result's covered-line set, which may hold lines no
 * counter reached (statements unwound by `process.exit()`): the first statement on such a line counts 1.
 */
export function coverageDetail(
  map: CoverageMap,
  statementCounts: readonly number[] | undefined,
  branchCounts: readonly (readonly number[])[] | undefined,
  covered: ReadonlySet<number>,
): CoverageDetail {
  // coveredLines owns the rule of which statements decide a line: ask it which lines nested statements alone would cover.
  const nestedDecide = coveredLines(map, map.statements.map((s) => (s.nested ? 1 : 0)));
  const deciding = map.statements.filter((s) => !s.nested || nestedDecide.has(s.line));
  const statements = deciding.map((s) => ({ line: s.line, column: s.column, count: statementCounts?.[s.id] ?? 0 }));
  const reached = new Set(statements.filter((s) => s.count > 0).map((s) => s.line));
  // The first statement of the line ran: the statements after it on the line cannot have started.
  const first = new Map<number, StatementCount>();
  for (const s of statements) if (covered.has(s.line) && !reached.has(s.line) && (first.get(s.line)?.column ?? Infinity) > s.column) first.set(s.line, s);
  const unwound = new Set(first.values());
  const detail = statements.map((s) => (unwound.has(s) ? { ...s, count: 1 } : s));
  const branches = map.branches.map((b) => ({
    line: b.line, column: b.column, kind: b.kind,
    counts: Array.from({ length: b.outcomes }, (_, k) => branchCounts?.[b.id]?.[k] ?? 0),
  }));
  const functions = (map.functions ?? []).map((f) => ({ name: f.name, line: f.line, column: f.column, count: statementCounts?.[functionCounter(map, f)] ?? 0 }));
  return { statements: detail, branches, functions };
}
