import type { BatchRunSummary } from '../core/batchSummary.ts';
import { describeLlmUsage } from './formatHuman.ts';
import { NO_SHARE, percent } from './percent.ts';

/**
 * The human batch summary: percentages and counts, one labelled line each.
 *
 * ```
 * snippets           40 (trace)
 * line coverage      74.0 % (first execution), 80.1 % over kept scenarios
 * ```
 */
export function formatBatchSummary(s: BatchRunSummary): string {
  const { parsed, lines, branches } = s.counted;
  // A ratio of nothing (no line measured, no branch, no snippet parsed) is `–`, as in every report.
  const of = (whole: number) => (x: number) => (whole === 0 ? NO_SHARE : percent(x));
  const [linePct, branchPct, snippetPct] = [of(lines), of(branches), of(parsed)];
  const statuses = Object.entries(s.statusCounts).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0)).map(([status, n]) => `${status} ${n}`).join(', ');
  const rows: [string, string][] = [
    ['snippets', `${s.snippets} (${s.mode})${s.interrupted ? ', interrupted: --resume does the rest' : ''}`],
    ['line coverage', `${linePct(s.lineCoverage)} (first execution), ${linePct(s.exploredLineCoverage)} over kept scenarios`],
    ['mean line cov.', snippetPct(s.meanLineCoverage)],
    ['branch coverage', `${branchPct(s.branchCoverage)} (first execution), ${branchPct(s.exploredBranchCoverage)} over kept scenarios`],
    ['fully executed', snippetPct(s.fullyExecutedRate)],
    ['statuses', statuses || 'none'],
    ['degraded', String(s.degraded)],
    ['invalid lines', String(s.invalidLines)],
    ['time', `${(s.elapsedMs / 1000).toFixed(1)} s (${s.snippetsPerSecond.toFixed(1)} snippets/s)`],
  ];
  const llm = describeLlmUsage(s.llmCalls).replace(/^llm: /, '');
  if (llm !== '') rows.push(['llm', llm]);
  return rows.map(([label, value]) => `${label.padEnd(18)} ${value}`).join('\n') + '\n';
}
