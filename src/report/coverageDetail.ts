import { coveredLines, functionCounter, type BranchKind, type CoverageMap } from '../instrument/coverageModel.ts';
import type { RunResult } from './buildResult.ts';

/** A statement that decides its line's coverage, with its counter. Positions are 1-based, in the snippet's own source. */
export interface StatementCount {
  readonly line: number;
  readonly column: number;
  readonly count: number;
}

/** A branch point of the snippet, with one counter per outcome. */
export interface BranchCount {
  readonly line: number;
  readonly column: number;
  readonly kind: BranchKind;
  readonly counts: readonly number[];
}

/** A function of the snippet, with how many times it was called. */
export interface FunctionCount {
  readonly name: string;
  readonly line: number;
  readonly column: number;
  readonly count: number;
}

/**
 * The counters behind a result's `lines` and `branches`, with their positions in the snippet's own
 * source (injected code has no counters): what istanbul's statementMap and branchMap need. A line is
 * covered exactly when a statement here that starts on it has a count above 0.
 */
export interface CoverageDetail {
  readonly statements: readonly StatementCount[];
  readonly branches: readonly BranchCount[];
  readonly functions: readonly FunctionCount[];
}

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

/** Attaches the detail to a result: not enumerable, so JSON output never carries it. */
export function withCoverageDetail(result: RunResult, detail: CoverageDetail): RunResult {
  return Object.defineProperty(result, 'coverageDetail', { value: detail, enumerable: false });
}
