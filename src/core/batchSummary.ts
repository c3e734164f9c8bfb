import type { Mode } from './options.ts';
import type { LlmUsage } from './llmUsage.ts';
import type { RunResult, RunStatus } from './runResult.ts';

/** One line of a batch's results file: a snippet's result (its program left out) with its dataset id. */
export type BatchRow = Omit<RunResult, 'program' | 'detail'> & { readonly id: string };

export interface BatchSummary {
  readonly snippets: number;
  readonly mode: Mode;
  /** Covered over measured lines, summed over every parsed snippet. */
  readonly lineCoverage: number;
  /** Mean of the per-snippet line coverage ratios, over parsed snippets. */
  readonly meanLineCoverage: number;
  readonly branchCoverage: number;
  /**
   * The same over the union of each snippet's kept scenarios (`explored`, as Treefix counts); a
   * snippet without exploration counts with its first execution.
   */
  readonly exploredLineCoverage: number;
  readonly exploredBranchCoverage: number;
  readonly fullyExecutedRate: number;
  /**
   * What the ratios are of: the parsed snippets, their measured lines and their branch outcomes. A
   * ratio of none (0 of 0) is 0 above, and every report shows it as `–`.
   */
  readonly counted: { readonly parsed: number; readonly lines: number; readonly branches: number };
  readonly statusCounts: Partial<Record<RunStatus, number>>;
  /** Snippets whose values came from a stand-in source (`degraded` set: the LLM endpoint failed). */
  readonly degraded: number;
  readonly elapsedMs: number;
  readonly snippetsPerSecond: number;
  /** LLM requests, cache hits, retries and tokens over every row (`--mode llm`). */
  readonly llmCalls: LlmUsage;
}

/** The summary of a batch: the rows' figures, and what happened to the batch itself. */
export type BatchRunSummary = BatchSummary & {
  /** Dataset lines that were not `{id, code}` objects: skipped, each reported to `onInvalid`. */
  readonly invalidLines: number;
  /** The batch was stopped by its signal: the snippets not started are left for --resume. */
  readonly interrupted?: true;
};
