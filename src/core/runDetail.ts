import type { CoverageDetail } from './coverageDetail.ts';
import type { RunResult } from './runResult.ts';

/** `js`: plain JavaScript (types erased, JSX lowered). `ts`: types kept, what Node's type stripping cannot erase lowered. */
export type ProgramTarget = 'js' | 'ts';

/**
 * Where the snippet's lines stand in its completed program: each line of the snippet (as parsed,
 * numbered as Babel numbers them) → the lines of the program (split on `\n`, as V8 coverage tools
 * split them) that hold its code. A line with no code of its own in the program is absent.
 */
export type SnippetLines = ReadonlyMap<number, readonly number[]>;

/** The completed program (buildProgram's text, byte for byte) and where the snippet's lines went in it. */
export interface ProgramLayout {
  readonly code: string;
  readonly snippetLines: SnippetLines;
}

/**
 * What a result carries for callers in the same process beside its JSON data: the counters istanbul
 * reports need, the kept scenarios' own results, and the completed program in its other forms.
 * Its `toJSON` gives undefined, so `JSON.stringify` leaves a result's `detail` out by design:
 * `--json`, a batch's rows and a queue's payloads never carry it.
 */
export interface RunDetail {
  /** The statement, branch and function counters behind `lines` and `branches`, at their positions in the snippet's own source. */
  readonly coverage: CoverageDetail;
  /** The results of the kept scenarios 2, 3, … (`explored.kept`, in order), each as if it were the only execution. */
  readonly scenarios: readonly RunResult[];
  /**
   * The completed program with the snippet's TypeScript types kept, for `--emit FILE.ts` (Node's type
   * stripping runs it), built on first call; for a JavaScript snippet, the JavaScript program.
   */
  typedProgram(): string;
  /** The completed program (`program`, or with 'ts' the typed one) and where the snippet's lines are in it, built on each call. */
  programLayout(target?: ProgramTarget): ProgramLayout;
  /** Always undefined: keeps the detail out of JSON output. */
  toJSON(): undefined;
}

/** How a result's programs are built, for its detail (the engine passes the emitter's functions). */
export interface RunDetailInit {
  readonly coverage: CoverageDetail;
  readonly typedProgram: () => string;
  readonly programLayout: (target: ProgramTarget) => ProgramLayout;
}

/** A result's detail; the typed program is built once, on its first call. */
export function runDetail(init: RunDetailInit): RunDetail {
  let typed: string | undefined;
  return {
    coverage: init.coverage,
    scenarios: [],
    typedProgram: () => (typed ??= init.typedProgram()),
    programLayout: (target = 'js') => init.programLayout(target),
    toJSON: () => undefined,
  };
}

/** The same detail with the kept scenarios' results. */
export function withScenarios(detail: RunDetail, scenarios: readonly RunResult[]): RunDetail {
  return { ...detail, scenarios };
}
