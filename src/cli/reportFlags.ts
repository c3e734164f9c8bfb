import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CoverageReporter } from '../report/istanbulCoverage.ts';

/** The report flags of `run` and `batch`, by commander's attribute names. */
export interface ReportFlags {
  readonly coverageDir?: string;
  readonly reporter?: CoverageReporter[];
  readonly checkCoverage?: boolean;
  readonly lines?: number;
  readonly branches?: number;
  readonly functions?: number;
  readonly html?: string;
}

/** istanbulCoverage.ts's COVERAGE_REPORTERS, written here because that module loads istanbul; the compiler ties the two lists. */
export const REPORTER_CHOICES = ['text', 'text-summary', 'lcov', 'html', 'json', 'json-summary'] as const satisfies readonly CoverageReporter[];

// The list names every reporter: one added to CoverageReporter and not here fails to compile.
const listsEvery: Exclude<CoverageReporter, (typeof REPORTER_CHOICES)[number]> extends never ? true : never = true;
void listsEvery;

function percent(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return n;
}

/** Adds the coverage and HTML flags; `html` says what --html names for this command. */
export function addReportFlags(cmd: Command, html: 'file' | 'dir'): Command {
  return cmd
    .option('--coverage-dir <dir>', 'write istanbul coverage reports of the snippet\'s own lines into DIR (nyc, c8 and genhtml read them)')
    .addOption(new Option('--reporter <name>', 'a coverage report to write with --coverage-dir; repeatable (default: json, lcov, text-summary)').choices(REPORTER_CHOICES).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]))
    .option('--check-coverage', 'exit 1 when coverage is below --lines, --branches or --functions')
    .option('--lines <pct>', 'with --check-coverage: the least line coverage, in percent', percent)
    .option('--branches <pct>', 'with --check-coverage: the least branch coverage, in percent', percent)
    .option('--functions <pct>', 'with --check-coverage: the least function coverage, in percent', percent)
    .option('--html <path>', html === 'file' ? 'write an HTML report of the run to FILE' : 'write an HTML report into DIR: index.html and one page per snippet');
}
