import type { HostTimeout } from '../core/errors.ts';
import { NO_LLM_USAGE } from '../core/llmUsage.ts';
import type { RunResult } from '../core/runResult.ts';
import { measuredLines, type CoverageMap } from '../instrument/coverageModel.ts';

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
