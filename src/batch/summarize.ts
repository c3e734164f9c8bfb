import type { Mode } from '../core/options.ts';
import type { BatchRow, BatchSummary } from '../core/batchSummary.ts';
import type { RunResult, RunStatus } from '../core/runResult.ts';
import { addUsage, copyUsage, emptyUsage, type LlmUsage } from '../core/llmUsage.ts';

/**
 * The batch summary, built one row at a time so a batch of any length keeps no rows in memory.
 * `ran` counts the rows run now (not resumed), for the throughput.
 */
export class SummaryAccumulator {
  private snippets = 0;
  private parsed = 0;
  private covered = 0;
  private total = 0;
  private ratioSum = 0;
  private branchCovered = 0;
  private branchTotal = 0;
  private exploredCovered = 0;
  private exploredBranchCovered = 0;
  private full = 0;
  private degraded = 0;
  private readonly statusCounts: Partial<Record<RunStatus, number>> = {};
  private readonly usage: LlmUsage = emptyUsage();

  add(r: BatchRow): void {
    this.snippets++;
    this.statusCounts[r.status] = (this.statusCounts[r.status] ?? 0) + 1;
    if (r.degraded !== undefined) this.degraded++;
    addUsage(this.usage, r.llmCalls as Partial<LlmUsage> | undefined);
    if (r.status === 'syntax-error') return;
    this.parsed++;
    this.covered += r.lines.covered;
    this.total += r.lines.total;
    this.ratioSum += r.lineCoverage;
    this.branchCovered += r.branches.covered;
    this.branchTotal += r.branches.total;
    this.exploredCovered += r.explored?.lines.covered ?? r.lines.covered;
    this.exploredBranchCovered += r.explored?.branches.covered ?? r.branches.covered;
    if (r.fullyExecuted) this.full++;
  }

  /**
   * Adds another accumulator's rows: every figure is a count or a sum, so summaries of parts of a
   * batch (rows read back by --resume, rows from a queue's workers) merge into the summary of the whole.
   */
  merge(other: SummaryAccumulator): this {
    this.snippets += other.snippets;
    this.parsed += other.parsed;
    this.covered += other.covered;
    this.total += other.total;
    this.ratioSum += other.ratioSum;
    this.branchCovered += other.branchCovered;
    this.branchTotal += other.branchTotal;
    this.exploredCovered += other.exploredCovered;
    this.exploredBranchCovered += other.exploredBranchCovered;
    this.full += other.full;
    this.degraded += other.degraded;
    for (const [status, n] of Object.entries(other.statusCounts) as [RunStatus, number][]) this.statusCounts[status] = (this.statusCounts[status] ?? 0) + n;
    addUsage(this.usage, other.usage);
    return this;
  }

  result(mode: Mode, elapsedMs: number, ran: number): BatchSummary {
    const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
    return {
      snippets: this.snippets,
      mode,
      lineCoverage: ratio(this.covered, this.total),
      meanLineCoverage: ratio(this.ratioSum, this.parsed),
      branchCoverage: ratio(this.branchCovered, this.branchTotal),
      exploredLineCoverage: ratio(this.exploredCovered, this.total),
      exploredBranchCoverage: ratio(this.exploredBranchCovered, this.branchTotal),
      fullyExecutedRate: ratio(this.full, this.parsed),
      counted: { parsed: this.parsed, lines: this.total, branches: this.branchTotal },
      statusCounts: { ...this.statusCounts },
      degraded: this.degraded,
      elapsedMs,
      snippetsPerSecond: ratio(ran, elapsedMs / 1000),
      llmCalls: copyUsage(this.usage),
    };
  }
}
