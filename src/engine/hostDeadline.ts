import { HostTimeout } from '../errors.ts';
import type { CoverageMap } from '../instrument/coverageModel.ts';
import { measuredLines } from '../instrument/coverageModel.ts';
import { NO_LLM_USAGE } from '../llm/llmSession.ts';
import type { RunResult } from '../report/buildResult.ts';

/** What host passes see of the deadline: a check to call between phases and every so often inside one. */
export interface DeadlineCheck {
  /** Throws HostTimeout, naming `phase`, once the budget is spent. */
  check(phase: string): void;
}

/**
 * The wall budget of one snippet (`totalTimeoutMs`), host work included. Parsing and instrumenting
 * are synchronous, so they cannot be interrupted from outside: they call `check` between phases and
 * every few thousand nodes inside a pass, and stop with HostTimeout once the budget is spent.
 */
export class HostDeadline implements DeadlineCheck {
  readonly budgetMs: number;
  private readonly now: () => number;
  private readonly startedAt: number;

  constructor(budgetMs: number, now: () => number = Date.now) {
    this.budgetMs = budgetMs;
    this.now = now;
    this.startedAt = now();
  }

  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  remainingMs(): number {
    return this.budgetMs - this.elapsedMs();
  }

  check(phase: string): void {
    if (this.remainingMs() <= 0) throw new HostTimeout(phase, this.budgetMs);
  }
}

/**
 * The result of a snippet whose budget ran out in host work before any execution: status
 * `host-timeout`, nothing covered. The measured lines are known when instrumentation finished.
 */
export function hostTimeoutResult(error: HostTimeout, elapsedMs: number, map?: CoverageMap): RunResult {
  const measured = map ? measuredLines(map) : [];
  const branches = map ? map.branches.reduce((n, b) => n + b.outcomes, 0) : 0;
  return {
    status: 'host-timeout',
    lines: { total: measured.length, covered: 0, measured, uncovered: measured },
    branches: { total: branches, covered: 0 },
    lineCoverage: 0, branchCoverage: 0, fullyExecuted: false, injections: [],
    errors: [{ type: 'HostTimeout', message: error.message, line: 0, column: 0, attribution: 'sandbox' }],
    stdout: '', runs: 0, llmCalls: NO_LLM_USAGE, elapsedMs,
  };
}
