import type { TraceLimits } from './callTrace.ts';

/** The environment variable through which `recordProgram` configures the preload; the preload removes it before the program runs. */
export const RECORD_ENV = 'SNIPEXEC_RECORD';

/** What the preload needs to record one program. */
export interface RecordConfig {
  /** The program's directory, absolute and symlink-free: its files (not node_modules) are instrumented. */
  readonly programDir: string;
  /** Where the trace is written, as the program runs. */
  readonly tracePath: string;
  /** The program's path relative to the trace file's directory. */
  readonly program: string;
  /** The file loaded with `--require` (recordPreload.ts): the preload removes that option from the program's execArgv. */
  readonly preload: string;
  /** `--max-calls` and `--max-trace-bytes`, validated. */
  readonly limits: TraceLimits;
}
