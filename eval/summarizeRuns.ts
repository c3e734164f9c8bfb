import type { BatchRow } from '../src/core/batchSummary.ts';

/** The figures of one mode on one dataset, over its repetitions. */
export interface ModeFigures {
  readonly dataset: string;
  readonly mode: string;
  readonly reps: number;
  readonly snippets: number;
  /** Covered over measured lines, summed over parsed snippets (mean over repetitions). */
  readonly lineCoverage: number;
  /** Standard deviation of lineCoverage over repetitions; 0 for one. */
  readonly lineCoverageSd: number;
  /** Mean of per-snippet line coverage over parsed snippets. */
  readonly meanLineCoverage: number;
  readonly branchCoverage: number;
  /** The same over each snippet's kept scenarios (explored), as Treefix counts; a snippet without exploration counts with its first execution. */
  readonly exploredLineCoverage: number;
  readonly exploredBranchCoverage: number;
  readonly fullyExecutedRate: number;
  /** Snippets that parsed, with or without repair, over all snippets. */
  readonly parseRate: number;
  /** Parsed snippets that needed a repair. */
  readonly repairRate: number;
  readonly statusCounts: Record<string, number>;
  /** Snippets whose run a not-caught error stopped, by whose fault (snippet, injected, environment, sandbox, provider). */
  readonly errorsBy?: Record<string, number>;
  readonly injections: number;
  readonly concreteRate: number;
  readonly llmCalls: number;
  /** Prompt tokens (src/llm/countTokens.ts) per element the LLM was asked to define; absent when none was. */
  readonly promptTokensPerElement?: number;
  readonly elapsedMs: number;
}

/** Figures of a set of repetitions (each a list of rows of the same snippets). */
export function figures(dataset: string, mode: string, reps: readonly (readonly BatchRow[])[], elapsedMs: number): ModeFigures {
  const per = reps.map((rows) => one(rows));
  const mean = (f: (x: ReturnType<typeof one>) => number) => per.reduce((a, x) => a + f(x), 0) / Math.max(1, per.length);
  const lc = mean((x) => x.lineCoverage);
  const sd = Math.sqrt(per.reduce((a, x) => a + (x.lineCoverage - lc) ** 2, 0) / Math.max(1, per.length));
  const first = reps[0] ?? [];
  const statusCounts: Record<string, number> = {};
  for (const r of first) statusCounts[r.status] = (statusCounts[r.status] ?? 0) + 1;
  const injections = first.flatMap((r) => r.injections);
  const errorsBy: Record<string, number> = {};
  for (const r of first) {
    const stopping = r.errors.find((e) => !e.caught);
    if (stopping) errorsBy[stopping.attribution] = (errorsBy[stopping.attribution] ?? 0) + 1;
  }
  return {
    dataset, mode, reps: reps.length, snippets: first.length,
    lineCoverage: lc, lineCoverageSd: sd, meanLineCoverage: mean((x) => x.meanLineCoverage), branchCoverage: mean((x) => x.branchCoverage),
    exploredLineCoverage: mean((x) => x.exploredLineCoverage), exploredBranchCoverage: mean((x) => x.exploredBranchCoverage),
    fullyExecutedRate: mean((x) => x.fullyExecutedRate), parseRate: mean((x) => x.parseRate), repairRate: mean((x) => x.repairRate),
    statusCounts, errorsBy, injections: injections.length, concreteRate: ratio(injections.filter((i) => i.concrete).length, injections.length),
    llmCalls: first.reduce((a, r) => a + (r.llmCalls?.calls ?? 0) + (r.llmCalls?.cached ?? 0), 0), elapsedMs,
    ...promptTokensPerElement(first),
  };
}

function promptTokensPerElement(rows: readonly BatchRow[]): { promptTokensPerElement?: number } {
  const elements = rows.reduce((a, r) => a + (r.llmCalls?.elements ?? 0), 0);
  const tokens = rows.reduce((a, r) => a + (r.llmCalls?.promptTokensCounted ?? 0), 0);
  return elements === 0 ? {} : { promptTokensPerElement: tokens / elements };
}

function one(rows: readonly BatchRow[]) {
  const parsed = rows.filter((r) => r.status !== 'syntax-error');
  const sum = (f: (r: BatchRow) => number) => parsed.reduce((a, r) => a + f(r), 0);
  return {
    lineCoverage: ratio(sum((r) => r.lines.covered), sum((r) => r.lines.total)),
    meanLineCoverage: ratio(sum((r) => r.lineCoverage), parsed.length),
    branchCoverage: ratio(sum((r) => r.branches.covered), sum((r) => r.branches.total)),
    exploredLineCoverage: ratio(sum((r) => r.explored?.lines.covered ?? r.lines.covered), sum((r) => r.lines.total)),
    exploredBranchCoverage: ratio(sum((r) => r.explored?.branches.covered ?? r.branches.covered), sum((r) => r.branches.total)),
    fullyExecutedRate: ratio(parsed.filter((r) => r.fullyExecuted).length, parsed.length),
    parseRate: ratio(parsed.length, rows.length),
    repairRate: ratio(parsed.filter((r) => (r.repairs?.length ?? 0) > 0).length, parsed.length),
  };
}

/** Which snippets each of two modes fully executes: SelfPiCo's Venn diagram as counts. */
export interface Overlap {
  readonly dataset: string;
  readonly a: string;
  readonly b: string;
  readonly both: number;
  readonly onlyA: number;
  readonly onlyB: number;
  readonly neither: number;
  /** A few ids of each side, to look at. */
  readonly onlyAExamples: readonly string[];
  readonly onlyBExamples: readonly string[];
}

export function overlap(dataset: string, a: string, rowsA: readonly BatchRow[], b: string, rowsB: readonly BatchRow[]): Overlap {
  const full = (rows: readonly BatchRow[]) => new Set(rows.filter((r) => r.fullyExecuted && r.status !== 'syntax-error').map((r) => r.id));
  const fa = full(rowsA);
  const fb = full(rowsB);
  const ids = new Set([...rowsA, ...rowsB].map((r) => r.id));
  const onlyA = [...fa].filter((id) => !fb.has(id));
  const onlyB = [...fb].filter((id) => !fa.has(id));
  const both = [...fa].filter((id) => fb.has(id)).length;
  return { dataset, a, b, both, onlyA: onlyA.length, onlyB: onlyB.length, neither: ids.size - both - onlyA.length - onlyB.length, onlyAExamples: onlyA.slice(0, 5), onlyBExamples: onlyB.slice(0, 5) };
}

export function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}
