import type { ReportedError } from './runResult.ts';

/**
 * The state of a measured line of the snippet, as every view shows it (terminal, HTML, JSON):
 * - `covered`: the first execution ran it, the code as written (with its injected values and drive's calls);
 * - `explored`: the first execution did not, a scenario exploration kept did;
 * - `threw`: no scenario covered it, and the first execution's uncaught error (or one of drive's
 *   calls') was raised on it: it started and did not finish;
 * - `uncovered`: nothing ran it.
 *
 * Only `covered` counts as covered in `lines.covered`, `lineCoverage` and the istanbul reports
 * (coverage-final.json, lcov.info: they have no other state): an explored or a thrown line has the
 * count 0 there, as in the first execution. `ISTANBUL_COUNTS` says so for each state.
 */
export type LineState = 'covered' | 'explored' | 'threw' | 'uncovered';

/** How the istanbul reports (JSON, lcov, HTML, text) count a line in each state: lcov knows covered and not covered only. */
export const ISTANBUL_COUNTS: Readonly<Record<LineState, 'covered' | 'not covered'>> = {
  covered: 'covered',
  explored: 'not covered',
  threw: 'not covered',
  uncovered: 'not covered',
};

/** What a result's lines say, as `RunResult.lines` holds it. */
export interface LineFacts {
  readonly measured: readonly number[];
  /** The lines the first execution did not cover; `explored` and `threw` are among them. */
  readonly uncovered: readonly number[];
  /** The lines only a kept exploration scenario covered (absent: none). */
  readonly explored?: readonly number[];
  /** The lines the snippet's uncaught error was raised on, that no scenario covered (absent: none). */
  readonly threw?: readonly number[];
}

/**
 * The lines of `uncovered` that are `explored` or `threw`, for the result's `lines` (each list
 * present only when it holds a line): a thrown line stays `threw` when a scenario covered it too,
 * since the first execution, which every other field reports, stopped there.
 * `exploredUncovered` is the union's uncovered lines (`explored.lines.uncovered`), absent without exploration.
 */
export function classifyUncovered(uncovered: readonly number[], exploredUncovered: readonly number[] | undefined, errors: readonly ReportedError[]): { explored?: number[]; threw?: number[] } {
  const raised = new Set(errors.filter(raisedByTheCode).map((e) => e.line));
  const stillUncovered = exploredUncovered === undefined ? undefined : new Set(exploredUncovered);
  const threw = uncovered.filter((n) => raised.has(n));
  const explored = stillUncovered === undefined ? [] : uncovered.filter((n) => !raised.has(n) && !stillUncovered.has(n));
  return { ...(explored.length > 0 ? { explored } : {}), ...(threw.length > 0 ? { threw } : {}) };
}

/** An error the code raised and nothing caught: the snippet's own, or one an injected value caused; not a limit of the sandbox's or a provider's failure. */
function raisedByTheCode(e: ReportedError): boolean {
  return e.line > 0 && e.caught !== true && (e.attribution === 'snippet' || e.attribution === 'injected');
}

/** Each measured line's state, in line order. */
export function lineStates(lines: LineFacts): Map<number, LineState> {
  const uncovered = new Set(lines.uncovered);
  const explored = new Set(lines.explored ?? []);
  const threw = new Set(lines.threw ?? []);
  return new Map(lines.measured.map((n): [number, LineState] => [n, !uncovered.has(n) ? 'covered' : threw.has(n) ? 'threw' : explored.has(n) ? 'explored' : 'uncovered']));
}
