/** Public API of snipexec. */
export { runSnippet, type RunDependencies } from './engine/runSnippet.ts';
export type { RunResult, RunStatus, Injection, ReportedError } from './report/buildResult.ts';
export { parseRunOptions, runOptionsSchema, type RunOptions, type RunOptionsInput, type Mode, type Lang } from './options.ts';
export { runBatch, type BatchRun, type BatchRunSummary, type BatchDependencies, type BatchProgress } from './batch/runBatch.ts';
export { readDataset, type DatasetItem, type InvalidLine } from './batch/readDataset.ts';
export { batchOptionsSchema, type BatchOptionsInput } from './options.ts';
export * from './errors.ts';
export type { ValueProvider, TypeClassifier, ValueRequest, Proposal, Category } from './values/types.ts';
export { CATEGORIES } from './values/types.ts';
