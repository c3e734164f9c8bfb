/**
 * The other outcome exploration asks of an injected value, by element id: an iterable that is
 * `empty`; a function that throws (`throw`) or returns a rejected promise (`reject`); an error-first
 * callback (a callback's element id, `fs.readFile#cb1`) called with an error (`error`).
 */
export type ValueOutcome = 'empty' | 'throw' | 'reject' | 'error';

/** A scenario exploration kept: it covered lines no scenario before it did. */
export interface ExploredScenario {
  /** 2, 3, … (scenario 1 is the run the result reports). */
  readonly scenario: number;
  /**
   * What this scenario did differently: a decision answered the other way (the site's source text
   * and line, and the answer asked for: a boolean, or a `switch` case's value), or an injected
   * value given its other outcome (the element, the line where the snippet used it, and the outcome).
   */
  readonly flipped: Flip;
  /** The kept scenario whose answers it keeps besides its own flip (1: the first execution's): scenarios form a tree. */
  readonly from: number;
  /** The lines it covered that no scenario before it did. */
  readonly newLines: readonly number[];
  /** The definitions that differ from scenario 1's: element and source. */
  readonly definitions: readonly { readonly element: string; readonly source: string }[];
}

/** The union over the kept scenarios, as Treefix counts (docs/internals/how-it-works.md "Explore"). */
export interface Explored {
  /** How many scenarios were kept, scenario 1 included. */
  readonly scenarios: number;
  /** How many scenarios were run, scenario 1 included, and their executions. */
  readonly tried: number;
  readonly runs: number;
  /** How many scenarios had a run that timed out or ran out of memory (exploration stops at MAX_STALLED_SCENARIOS). */
  readonly stalled: number;
  readonly lineCoverage: number;
  readonly branchCoverage: number;
  readonly lines: { readonly total: number; readonly covered: number; readonly uncovered: readonly number[] };
  readonly branches: { readonly total: number; readonly covered: number };
  readonly kept: readonly ExploredScenario[];
}

/** What a kept scenario did differently from the one it came from. */
export type Flip =
  | { readonly text: string; readonly line: number; readonly answer: string | number | boolean }
  | { readonly text: string; readonly line: number; readonly outcome: ValueOutcome };
