/** Public API of snipexec (`import { runSnippet } from 'snipexec'`): the package's `exports` point here. */

// Run a snippet.
export { runSnippet, type RunDependencies } from './engine/runSnippet.ts';
export type { RunResult, RunStatus, Injection, ReportedError, ScenarioOutput } from './core/runResult.ts';
export { lineStates, ISTANBUL_COUNTS, type LineState } from './core/lineStates.ts';
export { parseRunOptions, runOptionsSchema, MODES, LANGS, type RunOptions, type RunOptionsInput, type Mode, type Lang } from './core/options.ts';

// Run a dataset.
export { runBatch, type BatchRun, type BatchDependencies, type BatchProgress } from './batch/runBatch.ts';
export type { BatchRunSummary, BatchSummary, BatchRow } from './core/batchSummary.ts';
export { readDataset, type DatasetItem, type InvalidLine } from './batch/readDataset.ts';
export { batchOptionsSchema, parseBatchOptions, type BatchOptions, type BatchOptionsInput } from './core/options.ts';

// Check a git change.
export { runDiff, diffExitCode, type DiffOptions, type DiffReport, type Finding, type FragmentReport } from './diff/runDiff.ts';
export { toSarif } from './diff/toSarif.ts';

// Record a program's calls and turn them into tests.
export { recordProgram, type RecordOptions, type RecordedRun } from './record/recordProgram.ts';
export type { CallTrace, CallRecord, CallKind, Snapshot, Truncation } from './record/callTrace.ts';
export { recordLimitsSchema, type RecordLimitsInput } from './core/options.ts';
export { readTrace } from './testgen/readTrace.ts';
export { generateTests, generateTestsOptionsSchema, type GenerateTestsOptions, type GeneratedTests, type GeneratedFile } from './testgen/generateTests.ts';
export { generateCheckedTests, type CheckTestsOptions } from './testgen/checkTests.ts';
export type { SkippedCall, SkipReason, SkipKind } from './testgen/skipReasons.ts';

// Errors (each with a stable `code`) and value providers.
export * from './core/errors.ts';
export type { ValueProvider, TypeClassifier, ValueRequest, Proposal } from './values/types.ts';
export type { Category } from './core/categories.ts';
export { CATEGORIES } from './core/categories.ts';
