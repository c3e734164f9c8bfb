/** The kinds of branch point the instrumentation counts. */
export type BranchKind = 'if' | 'cond-expr' | 'logical' | 'switch' | 'loop';

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
