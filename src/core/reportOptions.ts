import { statSync } from 'node:fs';
import { z } from 'zod';

/** The istanbul reporters snipexec writes (istanbul-reports' names), in --help's order. */
export const COVERAGE_REPORTERS = ['text', 'text-summary', 'lcov', 'lcovonly', 'html', 'json', 'json-summary', 'cobertura', 'clover'] as const;
export type CoverageReporter = (typeof COVERAGE_REPORTERS)[number];
/** What is written when coverage is on and no reporter is named. */
export const DEFAULT_REPORTERS = ['json', 'lcov', 'text-summary'] as const satisfies readonly CoverageReporter[];
/** Where the reports go when a reporter or a threshold is given without a directory, as c8 and nyc write them. */
export const DEFAULT_COVERAGE_DIR = 'coverage';
/** The least line coverage when coverage is checked and --lines is not given: c8's and nyc's default. */
export const DEFAULT_LINES_THRESHOLD = 90;

/** The coverage figures a threshold can be set on, in the order they are checked and reported. */
export const THRESHOLD_METRICS = ['lines', 'statements', 'branches', 'functions'] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];

const percent = (what: string) => z.number().min(0).max(100).optional().describe(what);

/**
 * The coverage report settings of `run` and `batch` (flags and config keys of the same names). A
 * reporter or a threshold turns coverage on, into `coverageDir` (./coverage when not given); a
 * threshold turns the check on.
 */
export const reportOptionsSchema = z
  .object({
    coverageDir: z
      .string()
      .min(1)
      .refine((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? true, { error: 'not a directory' })
      .optional().describe(`Write istanbul coverage reports of the snippet's own lines into this directory (nyc, c8, genhtml and CI coverage views read them); ./${DEFAULT_COVERAGE_DIR} when a reporter or a threshold is given without it.`),
    reporter: z
      .union([z.enum(COVERAGE_REPORTERS), z.array(z.enum(COVERAGE_REPORTERS)).min(1)], { error: `expected a reporter or a list of reporters among ${COVERAGE_REPORTERS.join(', ')}` })
      .optional()
      .describe(`istanbul coverage reports to write (cobertura: cobertura-coverage.xml for GitLab and Jenkins; lcov: lcov.info and an HTML view; clover: clover.xml): a comma-separated list, or the flag given more than once; ${DEFAULT_REPORTERS.join(', ')} when coverage is on and none is named.`),
    checkCoverage: z.boolean().optional().describe(`Exit 1 when coverage is below a threshold: --lines (${DEFAULT_LINES_THRESHOLD} when not given, as in c8 and nyc), --statements, --branches, --functions. Giving a threshold or --per-file turns this on; false in a config file turns it off.`),
    lines: percent('The least line coverage, in percent of the measured lines (implies --check-coverage).'),
    statements: percent("The least statement coverage, in percent of the measured statements (implies --check-coverage). A statement is measured when it decides its line's coverage: one nested in another that starts on the same line is not counted apart, so this differs from --lines only on lines holding several statements."),
    branches: percent('The least branch coverage, in percent of the branch outcomes (implies --check-coverage).'),
    functions: percent("The least function coverage, in percent of the snippet's functions; a function is covered once called (implies --check-coverage)."),
    perFile: z.boolean().optional().describe('Check the thresholds on each file (each snippet of a batch) instead of on the totals, as c8 --per-file does (implies --check-coverage).'),
  })
  .strict();

export type ReportOptionsInput = z.input<typeof reportOptionsSchema>;

/** Report settings with the defaults decided: no `coverageDir` means no coverage report. */
export interface ResolvedReportOptions {
  readonly coverageDir?: string;
  readonly reporter?: readonly CoverageReporter[];
  /** The thresholds checked; undefined when coverage is not checked. */
  readonly thresholds?: Partial<Record<ThresholdMetric, number>>;
  readonly perFile?: boolean;
}

/** Applies the defaults: a reporter or a threshold turns coverage on (./coverage), a threshold or perFile turns the check on, --lines is 90 when checked and not given. */
export function resolveReportOptions(input: ReportOptionsInput): ResolvedReportOptions {
  const given = THRESHOLD_METRICS.filter((m) => input[m] !== undefined);
  // Explicit false (a config file's) keeps the thresholds written down and unchecked.
  const check = input.checkCoverage ?? (input.perFile === true || given.length > 0);
  const reporter = input.reporter === undefined ? undefined : typeof input.reporter === 'string' ? [input.reporter] : [...new Set(input.reporter)];
  const on = check || reporter !== undefined || input.coverageDir !== undefined;
  if (!on) return {};
  const thresholds = check ? { lines: input.lines ?? DEFAULT_LINES_THRESHOLD, ...Object.fromEntries(given.filter((m) => m !== 'lines').map((m) => [m, input[m]])) } : undefined;
  return {
    coverageDir: input.coverageDir ?? DEFAULT_COVERAGE_DIR,
    reporter: reporter ?? [...DEFAULT_REPORTERS],
    ...(thresholds ? { thresholds } : {}),
    ...(check && input.perFile ? { perFile: true } : {}),
  };
}
