import type { Mode } from '../options.ts';
import type { RunResult, RunStatus } from '../report/buildResult.ts';
import { NO_LLM_USAGE, type LlmUsage } from '../llm/llmSession.ts';

export type BatchRow = Omit<RunResult, 'program'> & { readonly id: string };

export interface BatchSummary {
  readonly snippets: number;
  readonly mode: Mode;
  /** Covered over measured lines, summed over every parsed snippet. */
  readonly lineCoverage: number;
  /** Mean of the per-snippet line coverage ratios, over parsed snippets. */
  readonly meanLineCoverage: number;
  readonly branchCoverage: number;
  readonly fullyExecutedRate: number;
  readonly statusCounts: Partial<Record<RunStatus, number>>;
  readonly elapsedMs: number;
  readonly snippetsPerSecond: number;
  /** LLM requests, cache hits, retries and tokens over every row (`--mode llm`). */
  readonly llmCalls: LlmUsage;
}

/** The batch summary over all rows; `ran` is how many were run now, for the throughput. */
export function summarize(rows: readonly BatchRow[], mode: Mode, elapsedMs: number, ran: number): BatchSummary {
  const parsed = rows.filter((r) => r.status !== 'syntax-error');
  const sum = (f: (r: BatchRow) => number) => parsed.reduce((a, r) => a + f(r), 0);
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
  const statusCounts: Partial<Record<RunStatus, number>> = {};
  for (const r of rows) statusCounts[r.status] = (statusCounts[r.status] ?? 0) + 1;
  return {
    snippets: rows.length,
    mode,
    lineCoverage: ratio(sum((r) => r.lines.covered), sum((r) => r.lines.total)),
    meanLineCoverage: ratio(sum((r) => r.lineCoverage), parsed.length),
    branchCoverage: ratio(sum((r) => r.branches.covered), sum((r) => r.branches.total)),
    fullyExecutedRate: ratio(parsed.filter((r) => r.fullyExecuted).length, parsed.length),
    statusCounts,
    elapsedMs,
    snippetsPerSecond: ratio(ran, elapsedMs / 1000),
    llmCalls: totalUsage(rows),
  };
}

function totalUsage(rows: readonly BatchRow[]): LlmUsage {
  const total: LlmUsage = { ...NO_LLM_USAGE };
  for (const r of rows) {
    const u = r.llmCalls as Partial<LlmUsage> | undefined;
    if (!u) continue;
    total.calls += u.calls ?? 0;
    total.cached += u.cached ?? 0;
    total.retries += u.retries ?? 0;
    total.promptTokens += u.promptTokens ?? 0;
    total.completionTokens += u.completionTokens ?? 0;
    total.capped ||= u.capped === true;
  }
  return total;
}
